/* sbx-launch: the log's reader sets the pace (--pace FILE). sbx reads the
 * log into its verdict while the command runs (src/host/log-follow.ts). A
 * command that prints faster than the verdict engine reads would leave the
 * engine behind by all it printed, and the verdict would be ready that much
 * work after the command exits (1.2 s for a 1 GiB `cat`). So the reader
 * writes how far it has read into FILE (8 bytes, little-endian, a file offset
 * of the log) and the relay stops draining the command's pipe while it is
 * more than PACE_LAG bytes ahead of that: the command then blocks in write(),
 * as it would on a terminal that scrolls slower than it prints, and the work
 * left at its exit stays under PACE_LAG bytes whatever it printed.
 *
 * The reader is trusted only to go faster, never to stop the command: until
 * FILE exists and holds 8 bytes nothing waits; all ones (~0) in it means "no
 * longer reading" (the reader reached the cap's head, or gave up); and a
 * reader that does not move for PACE_STALL_NS while the relay waits is
 * dropped for the rest of the run. The relay then writes as before. */
#define _GNU_SOURCE
#include "sbx.h"

/* Bytes the relay may be ahead of the reader: the engine's work after the
 * command exits (~13 ms at the engine's ~650 MB/s). */
#define PACE_LAG (8LL << 20)
#define PACE_STALL_NS 2000000000LL

static const char *pace_path;
static int pace_fd = -1;
static int pace_off;            /* no reader to wait for, for the rest of the run */
static long long reader_at;     /* the reader's last known offset in the log */
static long long open_at;       /* FILE is looked for again once this much is written */
static int64_t waiting_since;   /* 0, or when the relay began waiting with reader_at as it is */

void
pace_open(const struct spec *s)
{
  pace_path = s->pace;
}

/* The reader's offset from FILE: 1 when read, 0 when there is none to go by. */
static int
pace_read(void)
{
  unsigned char b[8];
  unsigned long long at = 0;
  struct stat st;
  if (pace_fd < 0)
    {
      pace_fd = open(pace_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (pace_fd < 0)
        return 0;
      if (fstat(pace_fd, &st) < 0 || !S_ISREG(st.st_mode))
        {
          pace_off = 1;
          return 0;
        }
    }
  if (pread(pace_fd, b, sizeof b, 0) != (ssize_t)sizeof b)
    return 0;
  for (int i = 7; i >= 0; i--)
    at = at << 8 | b[i];
  if (at == ~0ULL || at > (unsigned long long)LLONG_MAX)
    {
      pace_off = 1;
      return 0;
    }
  if ((long long)at != reader_at)
    waiting_since = 0;
  reader_at = (long long)at;
  return 1;
}

/* 1 when the relay should wait before it reads more of the command's output
 * into sink k: its reader is more than PACE_LAG bytes behind. */
int
pace_held(const struct sink *k)
{
  long long end = k->base + k->written;
  if (pace_path == NULL || pace_off || end - reader_at <= PACE_LAG)
    return 0;
  if (pace_fd < 0 && end < open_at)
    return 0;
  open_at = end + PACE_LAG;
  if (!pace_read() || end - reader_at <= PACE_LAG)
    {
      waiting_since = 0;
      return 0;
    }
  if (waiting_since == 0)
    waiting_since = now_ns();
  else if (now_ns() - waiting_since > PACE_STALL_NS)
    {
      pace_off = 1;
      return 0;
    }
  return 1;
}
