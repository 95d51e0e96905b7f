/* sbx-launch: a delegated cgroup v2 for the run, where one exists. */
#define _GNU_SOURCE
#include "cgroup.h"
#include "report.h"

int cgroup_fd = -1;
char cgroup_path[PATH_MAX];

void
step_cgroup(const struct spec *s)
{
  int i;
  if (s->cgroup == NULL)
    {
      record("cgroup", 0, "%s", s->cgroup_reason ? s->cgroup_reason : "not requested");
      return;
    }
  snprintf(cgroup_path, sizeof cgroup_path, "%s", s->cgroup);
  if (mkdir(cgroup_path, 0755) < 0)
    {
      record("cgroup", 0, "mkdir %s: %s", cgroup_path, strerror(errno));
      cgroup_path[0] = '\0';
      return;
    }
  for (i = 0; i < s->ncgroup_sets; i++)
    {
      char p[PATH_MAX + 64];
      snprintf(p, sizeof p, "%s/%s", cgroup_path, s->cgroup_sets[i].file);
      if (write_file(p, s->cgroup_sets[i].value) < 0)
        {
          record("cgroup", 0, "writing %s: %s", s->cgroup_sets[i].file, strerror(errno));
          rmdir(cgroup_path);
          cgroup_path[0] = '\0';
          return;
        }
    }
  cgroup_fd = open(cgroup_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (cgroup_fd < 0)
    {
      record("cgroup", 0, "open %s: %s", cgroup_path, strerror(errno));
      rmdir(cgroup_path);
      cgroup_path[0] = '\0';
      return;
    }
}

long
cgroup_oom_kills(void)
{
  char p[PATH_MAX + 32], buf[1024];
  const char *k;
  ssize_t n;
  int fd;
  snprintf(p, sizeof p, "%s/memory.events", cgroup_path);
  fd = open(p, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  k = strstr(buf, "oom_kill ");
  return k ? strtol(k + 9, NULL, 10) : 0;
}
