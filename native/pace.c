/* sbx-launch: the log's reader sets the pace (--pace FILE). sbx reads the
 * log into its verdict while the command runs (src/host/log-follow.ts). A
 * command that prints faster than the verdict engine reads would leave the
 * engine behind by all it printed, and the verdict would be ready that much
 * work after the command exits (1.2 s for a 1 GiB `cat`). So the reader keeps
 * in FILE how far the log may be written (8 bytes, little-endian: a file
 * offset of the log, its read position plus what it reads in ~25 ms, like a
 * TCP window) and the relay stops draining the command's pipe while the log
 * is past that: the command then blocks in write(), as it would on a terminal
 * that scrolls slower than it prints, and the work left at its exit stays
 * that small whatever it printed.
 *
 * The reader is trusted only to go faster, never to stop the command: until
 * FILE exists and holds 8 bytes nothing waits; all ones (~0) in it means "no
 * longer reading" (the reader reached the cap's head, or gave up); and a
 * limit that does not move for PACE_STALL_NS while the relay waits is dropped
 * for the rest of the run. The relay then writes as before.
 *
 * The ring (log.c): past its cap, a log's bytes are overwritten in the file.
 * So that the reader can follow every byte of the output, not only the head
 * (its verdict is then ready as the command exits, whatever the cap), the
 * launcher tells it how far the log is written: 8 more bytes in FILE, at
 * offset 8, little-endian, the sink's `written` with the PACE_* flags below,
 * updated after every write past the head and once before the ring is put in
 * order at the end. And it never wraps the ring past a reader that has not
 * said where it is: at the cap it waits for FILE (PACE_STALL_NS at most). */
#define _GNU_SOURCE
#include "pace.h"
#include "util.h"

/* FILE is looked for (again) once this many more bytes are written. */
#define PACE_RETRY (4LL << 20)
#define PACE_STALL_NS 2000000000LL

static const char *pace_path;
static int pace_fd = -1;
static int pace_off;          /* no reader to wait for, for the rest of the run */
static long long limit = -1;  /* the offset the log may be written up to, -1: none known */
static long long open_at;     /* FILE is looked for again once the log reaches this */
static int64_t waiting_since; /* 0, or when the relay began waiting with `limit` as it is */
static int pace_rw;           /* FILE is open for writing too: the progress word is kept in it */

/* The progress word's flags (above any count of bytes). */
#define PACE_FINISHING (1ULL << 62) /* the ring is being put in order: read it once the launcher is gone */
#define PACE_FAILED (1ULL << 61)    /* a write failed: the log lacks bytes of the output */
#define PACE_NORING (1ULL << 60)    /* not a ring one reader can follow (two sinks, or no ring) */

/* The progress word: where sink k is, for the reader. */
void
pace_progress(const struct sink *k, int finishing)
{
  unsigned char b[8];
  unsigned long long w;
  if (pace_fd < 0 || !pace_rw)
    return;
  w = (unsigned long long)k->written;
  if (!sink_followable(k))
    w |= PACE_NORING;
  if (k->err)
    w |= PACE_FAILED;
  if (finishing)
    w |= PACE_FINISHING;
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(w >> (8 * i));
  if (pwrite(pace_fd, b, sizeof b, 8) != (ssize_t)sizeof b)
    pace_rw = 0;
}

static void
pace_ordering(const struct sink *k)
{
  pace_progress(k, 1);
}

void
pace_open(const struct spec *s)
{
  pace_path = s->pace;
  sink_ordering = pace_ordering;
}

/* The reader's limit from FILE: 1 when read, 0 when there is none to go by. */
static int
pace_read(const struct sink *k)
{
  unsigned char b[8];
  unsigned long long at = 0;
  struct stat st;
  if (pace_fd < 0)
    {
      pace_fd = open(pace_path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      pace_rw = pace_fd >= 0;
      if (pace_fd < 0)
        pace_fd = open(pace_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (pace_fd < 0)
        return 0;
      if (fstat(pace_fd, &st) < 0 || !S_ISREG(st.st_mode))
        {
          pace_off = 1;
          pace_rw = 0;
          return 0;
        }
      /* The reader knows from now on whether it can follow the ring. */
      pace_progress(k, 0);
    }
  if (pread(pace_fd, b, sizeof b, 0) != (ssize_t)sizeof b)
    return 0;
  for (int i = 7; i >= 0; i--)
    at = at << 8 | b[i];
  if (at > (unsigned long long)LLONG_MAX)
    {
      pace_off = 1; /* ~0: no longer reading */
      return 0;
    }
  if ((long long)at != limit)
    waiting_since = 0;
  limit = (long long)at;
  return 1;
}

/* 1 when the relay should wait before it reads more of the command's output
 * into sink k: the log is past the limit its reader set. */
int
pace_held(const struct sink *k)
{
  long long end = k->base + k->written;
  /* The next read may come near the ring's wrap: a reader not heard of yet is waited for
   * (a read in flight stays RELAY_READ clear of the bytes it has not read). */
  int wrap = sink_followable(k) && k->written + 2 * RELAY_READ > k->cap;
  if (pace_path == NULL || pace_off || (limit >= 0 && end <= limit))
    return 0;
  if (pace_fd < 0)
    {
      if (end < open_at && !wrap)
        return 0;
      open_at = end + PACE_RETRY;
    }
  if ((!pace_read(k) && !wrap) || pace_off)
    {
      waiting_since = 0;
      return 0;
    }
  if (limit >= 0 && end <= limit)
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
