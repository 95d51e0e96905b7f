/* sbx-launch: the raw log, bounded. The relay (relay.c) hands every byte of
 * the command's output to a sink here, which writes it into the launcher's
 * fd 1 or 2 (sbx passes one file as both: one pipe and one sink then serve
 * the two).
 *
 * With --max-log CAP and a regular file, the log never grows past CAP bytes:
 *
 *   [ head: the first CAP/2 bytes ][ ring: the last CAP - CAP/2 bytes ]
 *
 * The first CAP bytes are written in order; every byte after them overwrites
 * the oldest byte of the ring, in the file itself (pwrite at known offsets, so
 * no memory grows with the cap). When the output is over, sink_finish rotates
 * the ring into order (three in-place reversals, 64 KiB at a time) and writes
 * a marker line over the start of the tail: "[sbx: N bytes dropped here ...]".
 * While a run is past its cap, the ring part of the file is out of order; the
 * report says how much was dropped (log_dropped).
 *
 * Writing never stops the relay: the command's pipe is always drained. The
 * first failed write (ENOSPC, EFBIG, EIO, a closed pipe) stops the writing;
 * what was not written is counted (log_unwritten, log_errno) and a last marker
 * line is tried at the log's end. The run goes on and ends as it would have. */
#define _GNU_SOURCE
#include "log.h"

static struct sink sinks[2];
void (*sink_ordering)(const struct sink *k);
static int nsinks; /* 2: fd 2 has a sink of its own */

/* The rotation reads and writes chunks of this size: all the memory the cap costs. */
#define CHUNK 65536

static int
same_file(int a, int b)
{
  struct stat sa, sb;
  return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

static void
sink_init(struct sink *k, int fd, long long cap)
{
  struct stat st;
  int fl = fcntl(fd, F_GETFL);
  off_t at;
  memset(k, 0, sizeof *k);
  k->fd = fd;
  k->mode = SINK_PLAIN;
  /* A pipe or a terminal is bounded by its reader; only a file is capped. */
  if (cap <= 0 || fl < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
    return;
  at = lseek(fd, 0, SEEK_CUR);
  k->base = at < 0 ? 0 : (long long)at;
  k->cap = cap;
  k->head = cap / 2;
  /* The ring needs to read back and to write where it says: a descriptor
   * open for reading and writing, without O_APPEND (sbx opens its logs so).
   * Otherwise the log keeps its first CAP bytes and drops the rest. */
  k->mode = ((fl & O_ACCMODE) == O_RDWR && !(fl & O_APPEND)) ? SINK_RING : SINK_HEAD;
}

/* fd 1 and fd 2 as sinks: one shared sink when both are the same file or one
 * pipe carries both streams (merged: relay.c). out[i] is the sink of fd i + 1. */
void
sinks_open(const struct spec *s, int merged, struct sink *out[2])
{
  sink_init(&sinks[0], 1, s->max_log);
  out[0] = &sinks[0];
  /* One pipe for both streams (relay.c), or two into the same file. */
  if (merged || same_file(1, 2))
    out[1] = &sinks[0];
  else
    {
      sink_init(&sinks[1], 2, s->max_log);
      out[1] = &sinks[1];
      nsinks = 2;
    }
}

static int
pwrite_all(int fd, const char *buf, size_t len, long long off)
{
  while (len > 0)
    {
      ssize_t n = TEMP_FAILURE_RETRY(pwrite(fd, buf, len, (off_t)off));
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return -1;
        }
      buf += n;
      len -= (size_t)n;
      off += n;
    }
  return 0;
}

static int
pread_all(int fd, char *buf, size_t len, long long off)
{
  while (len > 0)
    {
      ssize_t n = TEMP_FAILURE_RETRY(pread(fd, buf, len, (off_t)off));
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return -1;
        }
      buf += n;
      len -= (size_t)n;
      off += n;
    }
  return 0;
}

static void
sink_failed(struct sink *k)
{
  if (k->err == 0)
    k->err = errno ? errno : EIO;
}

/* A ring that one reader follows byte by byte (pace.c): the one sink of the log, its ring at least
 * RING_MIN (the reader's window is half of it, less what the relay reads at a time; RING_MIN in
 * src/host/log-follow.ts). */
#define RING_MIN (256LL << 10)
int
sink_followable(const struct sink *k)
{
  return k == &sinks[0] && nsinks != 2 && k->mode == SINK_RING && k->cap - k->head >= RING_MIN;
}

/* Where the stream's byte at `pos` lives in the file (relative to base). */
static long long
place(const struct sink *k, long long pos)
{
  if (pos < k->cap)
    return pos;
  return k->head + (pos - k->head) % (k->cap - k->head);
}

void
sink_write(struct sink *k, const char *buf, size_t n)
{
  k->seen += (long long)n;
  if (k->stopped)
    return;
  if (k->mode == SINK_HEAD && k->written + (long long)n > k->cap)
    n = (size_t)(k->cap > k->written ? k->cap - k->written : 0);
  while (n > 0)
    {
      ssize_t w;
      size_t len = n;
      if (k->mode == SINK_PLAIN)
        w = TEMP_FAILURE_RETRY(write(k->fd, buf, len));
      else
        {
          /* Up to the end of the capped span; the ring then starts over. */
          long long at = place(k, k->written);
          if ((long long)len > k->cap - at)
            len = (size_t)(k->cap - at);
          w = TEMP_FAILURE_RETRY(pwrite(k->fd, buf, len, (off_t)(k->base + at)));
        }
      if (w <= 0)
        {
          /* What a partial write took is in the log, and counted in `written`.
           * A full pipe (a caller's non-blocking one) costs this chunk only:
           * the relay never waits for a reader. Any other error ends the writing. */
          if (w == 0)
            errno = EIO;
          k->stopped = errno != EAGAIN;
          sink_failed(k);
          return;
        }
      k->written += (long long)w;
      buf += w;
      n -= (size_t)w;
    }
}

static int
reverse(int fd, long long lo, long long hi, char *a, char *b)
{
  while (hi - lo >= 2)
    {
      size_t len = (size_t)((hi - lo) / 2 < CHUNK ? (hi - lo) / 2 : CHUNK);
      if (pread_all(fd, a, len, lo) < 0 || pread_all(fd, b, len, hi - (long long)len) < 0)
        return -1;
      for (size_t i = 0; i < len / 2; i++)
        {
          char t = a[i];
          a[i] = a[len - 1 - i];
          a[len - 1 - i] = t;
          t = b[i];
          b[i] = b[len - 1 - i];
          b[len - 1 - i] = t;
        }
      if (pwrite_all(fd, b, len, lo) < 0 || pwrite_all(fd, a, len, hi - (long long)len) < 0)
        return -1;
      lo += (long long)len;
      hi -= (long long)len;
    }
  return 0;
}

/* The ring [head, cap) into order: its oldest byte, at `oldest`, first. */
static int
rotate(const struct sink *k, long long oldest)
{
  long long lo = k->base + k->head, mid = lo + oldest, hi = k->base + k->cap;
  char *a = malloc(CHUNK), *b = malloc(CHUNK);
  int r = -1;
  if (a != NULL && b != NULL)
    r = (reverse(k->fd, lo, mid, a, b) < 0 || reverse(k->fd, mid, hi, a, b) < 0 || reverse(k->fd, lo, hi, a, b) < 0) ?
            -1 :
            0;
  else
    errno = ENOMEM;
  free(a);
  free(b);
  return r;
}

/* The marker of a capped log, written over the first bytes of the tail: they
 * count as dropped too, so the log stays exactly CAP bytes. Its length and
 * the count it states depend on each other; the length only grows with the
 * count, so a few rounds settle it. */
static size_t
cut_marker(char *out, size_t size, const struct sink *k, long long *dropped)
{
  long long over = k->written - k->cap;
  int len = 0;
  for (int round = 0; round < 8; round++)
    {
      int n;
      *dropped = over + len;
      n = snprintf(out, size,
                   "\n[sbx: %lld bytes of output dropped here: the log keeps its start and its end (--max-log %lld)]\n",
                   *dropped, k->cap);
      if (n == len)
        break;
      len = n;
    }
  return (size_t)len;
}

/* A capped log put in order, with its marker: returns where it ends (relative to base). */
static long long
sink_order(struct sink *k)
{
  char text[256];
  int len;
  if (k->mode == SINK_RING && k->written > k->cap)
    {
      /* Also after a failed write: what was written is in the ring, in its order. */
      size_t n;
      if (sink_followable(k) && sink_ordering)
        sink_ordering(k); /* its reader stops reading the ring (pace.c) */
      n = cut_marker(text, sizeof text, k, &k->dropped);
      if (rotate(k, (k->written - k->head) % (k->cap - k->head)) < 0 ||
          pwrite_all(k->fd, text, n, k->base + k->head) < 0)
        sink_failed(k);
      return k->cap;
    }
  if (k->mode == SINK_HEAD && k->seen > k->written && k->err == 0)
    {
      /* Kept its first CAP bytes: say so at the end. */
      k->dropped = k->seen - k->written;
      len = snprintf(text, sizeof text,
                     "\n[sbx: %lld bytes of output dropped here: the log keeps its start (--max-log %lld)]\n",
                     k->dropped, k->cap);
      if (pwrite_all(k->fd, text, (size_t)len, k->base + k->written) < 0)
        {
          sink_failed(k);
          return k->written;
        }
      return k->written + len;
    }
  return k->written;
}

static void
sink_finish(struct sink *k)
{
  char text[256];
  int len;
  long long end = k->mode == SINK_PLAIN ? 0 : sink_order(k);
  if (k->err != 0 && k->seen > k->written + (k->mode == SINK_HEAD ? k->dropped : 0))
    {
      /* Best effort: a full disk often still takes a few bytes into a block already there. */
      len = snprintf(text, sizeof text, "\n[sbx: %lld bytes of output not written to the log: %s]\n",
                     k->seen - k->written, strerror(k->err));
      if (k->mode == SINK_PLAIN)
        (void)write_all(k->fd, text, (size_t)len);
      else if (pwrite_all(k->fd, text, (size_t)len, k->base + end) == 0)
        end += len;
    }
  /* pwrite leaves the descriptor's offset alone: put it where the log ends, as
   * plain writes would have (for anything written after us). */
  if (k->mode != SINK_PLAIN)
    (void)lseek(k->fd, (off_t)(k->base + end), SEEK_SET);
}

/* After the last byte was relayed: orders the logs and says what they lack. */
void
sinks_finish(void)
{
  sink_finish(&sinks[0]);
  if (nsinks == 2)
    sink_finish(&sinks[1]);
}

/* The report's figures, both sinks together. */
void
sinks_total(long long *cap, long long *dropped, long long *unwritten, int *err)
{
  int two = nsinks == 2;
  *cap = sinks[0].mode != SINK_PLAIN ? sinks[0].cap : 0;
  *dropped = sinks[0].dropped + (two ? sinks[1].dropped : 0);
  *unwritten = sinks[0].seen - sinks[0].written - sinks[0].dropped * (sinks[0].mode == SINK_HEAD);
  if (two)
    *unwritten += sinks[1].seen - sinks[1].written - sinks[1].dropped * (sinks[1].mode == SINK_HEAD);
  *err = sinks[0].err ? sinks[0].err : two ? sinks[1].err : 0;
}
