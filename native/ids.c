/* sbx-launch: user namespace maps: the caller's own id, or (host root) an
 * unprivileged id written by the launcher, and the idmapped binds that go with it. */
#define _GNU_SOURCE
#include "ids.h"
#include "report.h"
#include <grp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>

long outer_uid, outer_gid;
/* With --map-uid the launcher writes init's id maps (only a process privileged
 * over the parent namespace may map ids other than its own) and then says so
 * on this pipe. */
int maps_pipe[2] = { -1, -1 };

/* Host root callers: the sandbox user is not root's kuid but an unprivileged
 * host id, so root's own files outside the work dir (/opt, /root, 0600 keys)
 * are as closed to it as to any other user. init takes that id and keeps its
 * capabilities over the new namespaces (it was never root there). */
void
step_mapped_ids(const struct spec *s)
{
  char c;
  ssize_t n;
  close(maps_pipe[1]);
  n = TEMP_FAILURE_RETRY(read(maps_pipe[0], &c, 1));
  close(maps_pipe[0]);
  if (n != 1)
    fail_step("userns", "the launcher did not write the id maps");
  if (setgroups(0, NULL) < 0)
    fail_step("userns", "dropping supplementary groups");
  if (setresgid((gid_t)s->gid, (gid_t)s->gid, (gid_t)s->gid) < 0 ||
      setresuid((uid_t)s->uid, (uid_t)s->uid, (uid_t)s->uid) < 0)
    fail_step("userns", "taking uid %ld gid %ld", s->uid, s->gid);
  /* A change of ids clears the dumpable flag; /proc/self/fd (mount targets)
   * needs it back. */
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  record("userns", 1, "uid %ld gid %ld mapped to host %ld:%ld (not the caller's: root), no supplementary groups",
         s->uid, s->gid, s->map_uid, s->map_gid);
}

/* Run by the launcher: init's maps, then the go-ahead. */
int
write_init_maps(const struct spec *s, pid_t init)
{
  char path[64], map[64];
  int ok;
  snprintf(path, sizeof path, "/proc/%d/uid_map", (int)init);
  snprintf(map, sizeof map, "%ld %ld 1\n", s->uid, s->map_uid);
  ok = write_file(path, map) == 0;
  snprintf(path, sizeof path, "/proc/%d/gid_map", (int)init);
  snprintf(map, sizeof map, "%ld %ld 1\n", s->gid, s->map_gid);
  ok = ok && write_file(path, map) == 0;
  close(maps_pipe[0]);
  if (ok)
    (void)!write(maps_pipe[1], "m", 1);
  close(maps_pipe[1]);
  return ok ? 0 : -1;
}

/* Host id 0 inside as `to`, every other id as itself (ids 1..4294967294). */
static void
idmap_lines(char *out, size_t n, long to)
{
  snprintf(out, n, "0 %ld 1\n1 1 %ld\n%ld %ld %ld\n", to, to - 1, to + 1, to + 1, 4294967295L - to - 1);
}

/* The id-mapping namespace's child: it has nothing to do but exist. */
static int
idmap_child(void *unused)
{
  (void)unused;
  return 0;
}

/* A user namespace whose only purpose is an idmapped mount: host root (0)
 * shows as the sandbox user's host id, every other id as itself. Returns an
 * fd of it. A child is cloned straight into the new namespace, sharing our
 * memory (no page tables to copy; it runs idmap_child on its own stack and
 * exits): the namespace is there when clone returns, and a child not yet
 * reaped, running or a zombie, keeps its credentials, so its /proc maps and
 * ns/user are written and opened from here without waiting for it to run.
 * Was a fork that unshared and said so on a pipe: 0.25 ms (0.33 under
 * chrt -f 10), now 0.07 ms, of every root run outside --serve. */
static int
idmap_userns(const struct spec *s)
{
  static char stack[16384] __attribute__((aligned(16)));
  char path[64], map[160];
  int fd = -1;
  pid_t child = clone(idmap_child, stack + sizeof stack, CLONE_NEWUSER | CLONE_VM | SIGCHLD, NULL);
  if (child < 0)
    return -1;
  idmap_lines(map, sizeof map, s->map_uid);
  snprintf(path, sizeof path, "/proc/%d/uid_map", (int)child);
  if (write_file(path, map) == 0)
    {
      idmap_lines(map, sizeof map, s->map_gid);
      snprintf(path, sizeof path, "/proc/%d/gid_map", (int)child);
      if (write_file(path, map) == 0)
        {
          snprintf(path, sizeof path, "/proc/%d/ns/user", (int)child);
          fd = open(path, O_RDONLY | O_CLOEXEC);
        }
    }
  (void)TEMP_FAILURE_RETRY(waitpid(child, NULL, 0));
  return fd;
}

/* Under --serve, the id-mapping namespace of the last mapping a request asked
 * for, made by the server and kept open for the launchers it forks: each would
 * otherwise make its own (a fork, an unshare, two map writes: ~0.3 ms of every
 * root run). A launcher uses it when its spec asks for the same mapping, and
 * closes its copy before anything of the sandbox is cloned. */
static int kept_fd = -1;
static long kept_uid = -1, kept_gid = -1;

void
idmap_keep(long map_uid, long map_gid)
{
  struct spec tmp;
  if (kept_fd >= 0 && kept_uid == map_uid && kept_gid == map_gid)
    return;
  if (kept_fd >= 0)
    close(kept_fd);
  memset(&tmp, 0, sizeof tmp);
  tmp.map_uid = map_uid;
  tmp.map_gid = map_gid;
  kept_fd = idmap_userns(&tmp); /* -1 (not root, no user namespaces): each launcher tries, and says why */
  if (kept_fd >= 0 && kept_fd < 64)
    {
      /* Above the descriptors a launcher is handed (0-4: run_child's dup2s), so none lands on it. */
      int high = fcntl(kept_fd, F_DUPFD_CLOEXEC, 64);
      close(kept_fd);
      kept_fd = high;
    }
  kept_uid = map_uid;
  kept_gid = map_gid;
}

int
idmap_kept_fd(void)
{
  return kept_fd;
}

void
idmap_drop(void)
{
  if (kept_fd >= 0)
    close(kept_fd);
  kept_fd = -1;
}

/* Run by the launcher with --map-uid, before the clone: every bind marked
 * --idmap (the work dir, the caller's binds, the package's own files) is
 * cloned here (host root can reach it; the sandbox's unprivileged id might
 * not), id-mapped, and handed to init as a detached tree. */
void
prepare_trees(struct spec *s)
{
  int usfd = -1, i;
  for (i = 0; i < s->nops; i++)
    {
      struct op *op = &s->ops[i];
      /* Only the binds the spec id-maps: the system's (/usr, /etc, ...) are world-readable, so
       * init reaches them itself, and a clone each costs more than the bind. */
      if ((op->kind != OP_BIND && op->kind != OP_RO_BIND) || !op->idmap)
        continue;
      op->tree_fd = (int)syscall(SYS_open_tree, AT_FDCWD, op->a, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
      if (op->tree_fd < 0)
        die_with_error("cloning the mount of %s", op->a);
      if (usfd < 0 && kept_fd >= 0 && kept_uid == s->map_uid && kept_gid == s->map_gid)
        usfd = kept_fd;
      if (usfd < 0 && (usfd = idmap_userns(s)) < 0)
        die_with_error("making the user namespace for an idmapped mount");
      {
        struct mount_attr ma;
        memset(&ma, 0, sizeof ma);
        /* The bind's own flags go on the tree with its id map, before it is attached: init then
         * only attaches it (op_bind), with no second walk to the mount point and no remount. */
        ma.attr_set =
            MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (op->kind == OP_RO_BIND ? MOUNT_ATTR_RDONLY : 0);
        ma.userns_fd = (uint64_t)usfd;
        if (syscall(SYS_mount_setattr, op->tree_fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &ma, sizeof ma) < 0)
          die_with_error("id-mapping %s (its file system may not support idmapped mounts; run sbx as an "
                         "ordinary user instead of root)",
                         op->a);
      }
    }
  if (usfd >= 0 && usfd != kept_fd)
    close(usfd);
  idmap_drop();
}

void
step_id_maps(const struct spec *s)
{
  char map[64];
  long uid = s->uid >= 0 ? s->uid : outer_uid;
  long gid = s->gid >= 0 ? s->gid : outer_gid;
  /* An unprivileged process may map exactly its own ids, and only after it
   * gave up setgroups(2) for good. */
  if (write_file("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
    fail_step("userns", "writing /proc/self/setgroups");
  snprintf(map, sizeof map, "%ld %ld 1\n", uid, outer_uid);
  if (write_file("/proc/self/uid_map", map) < 0)
    fail_step("userns", "writing uid_map \"%ld %ld 1\"", uid, outer_uid);
  snprintf(map, sizeof map, "%ld %ld 1\n", gid, outer_gid);
  if (write_file("/proc/self/gid_map", map) < 0)
    fail_step("userns", "writing gid_map \"%ld %ld 1\"", gid, outer_gid);
  record("userns", 1, "uid %ld gid %ld mapped to %ld:%ld, setgroups denied", uid, gid, outer_uid, outer_gid);
}
