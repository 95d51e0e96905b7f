/* sbx-launch: the ground floor: the one die path and small I/O helpers that
 * return an error (-1 with errno) for their caller to act on. Calls nothing
 * of the other parts. */
#define _GNU_SOURCE
#include "util.h"

static const char *die_prefix = PREFIX;
static int die_code = EXIT_SETUP_FAILED;

void
die_as(const char *prefix, int exit_code)
{
  die_prefix = prefix;
  die_code = exit_code;
}

/* The one way out of the launcher before anything is set up: "sbx-launch:
 * MESSAGE[: strerror(err)]" on stderr (err -1: no errno), then EXIT_SETUP_FAILED
 * (another program's words and code: die_as). */
void
vdie(int err, const char *fmt, va_list ap)
{
  fputs(die_prefix, stderr);
  vfprintf(stderr, fmt, ap);
  if (err >= 0)
    fprintf(stderr, ": %s", strerror(err));
  fputc('\n', stderr);
  exit(die_code);
}

void
die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vdie(-1, fmt, ap);
}

void
die_with_error(const char *fmt, ...)
{
  int saved = errno;
  va_list ap;
  va_start(ap, fmt);
  vdie(saved, fmt, ap);
}

int64_t
now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
write_all(int fd, const char *buf, size_t len)
{
  while (len > 0)
    {
      ssize_t n = TEMP_FAILURE_RETRY(write(fd, buf, len));
      if (n <= 0)
        return -1;
      buf += n;
      len -= (size_t)n;
    }
  return 0;
}

/* Reads all of fd into buf, at most cap bytes: a file from offset 0 with
 * pread, whatever its shared offset (sbx keeps the seccomp program's open
 * across runs), a pipe with read. Returns the length (cap: it did not fit),
 * or -1 with errno set. */
ssize_t
read_from_start(int fd, char *buf, size_t cap)
{
  size_t len = 0;
  for (int use_read = 0; len < cap;)
    {
      ssize_t r =
          TEMP_FAILURE_RETRY(use_read ? read(fd, buf + len, cap - len) : pread(fd, buf + len, cap - len, (off_t)len));
      if (r < 0 && errno == ESPIPE && !use_read)
        {
          use_read = 1;
          continue;
        }
      if (r < 0)
        return -1;
      if (r == 0)
        break;
      len += (size_t)r;
    }
  return (ssize_t)len;
}

/* Writes a small string to a file, as needed for /proc/self/uid_map and
 * friends (one write(2), which those files require). Returns 0 or -1/errno. */
int
write_file(const char *path, const char *content)
{
  int fd, r, saved;
  fd = TEMP_FAILURE_RETRY(open(path, O_WRONLY | O_CLOEXEC));
  if (fd < 0)
    return -1;
  r = write_all(fd, content, strlen(content));
  saved = errno;
  close(fd);
  errno = saved;
  return r;
}

int
parse_long(const char *s, long min, long max, long *out)
{
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
    return -1;
  *out = v;
  return 0;
}

void
close_fds_range(unsigned int first, unsigned int last)
{
  if (first > last || syscall(SYS_close_range, first, last, 0) == 0)
    return;
  for (unsigned int fd = first; fd < 1024 && fd <= last; fd++)
    close((int)fd);
}

void *
xmalloc(size_t size)
{
  void *p = malloc(size);
  if (p == NULL)
    die("out of memory");
  return p;
}

void *
xcalloc(size_t n, size_t size)
{
  void *p = calloc(n, size);
  if (p == NULL)
    die("out of memory");
  return p;
}

void *
xrealloc(void *p, size_t size)
{
  p = realloc(p, size);
  if (p == NULL)
    die("out of memory");
  return p;
}

char *
xstrdup(const char *s)
{
  char *p = strdup(s);
  if (p == NULL)
    die("out of memory");
  return p;
}

void *
xgrow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
  size_t c = *cap ? *cap : first;
  if (need <= *cap)
    return p;
  while (c < need)
    c *= 2;
  *cap = c;
  return xrealloc(p, c * size);
}
