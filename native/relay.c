/* sbx-launch: the command's stdout and stderr, relayed. The command writes
 * into a pipe the launcher made; the launcher copies it into its own fd 1 as
 * data arrives and counts the bytes. The sandbox then never holds a
 * descriptor of the caller's (its log file), and the caller needs no pipes of
 * its own: sbx hands a file as fd 1 and 2, which is cheaper for a Node host
 * than streams (measured by bench/startup.js).
 *
 * When the launcher's fd 1 and fd 2 are one file (sbx's log, a terminal), the
 * command gets ONE pipe as both its fd 1 and fd 2: the kernel queues the
 * writes of both streams, of every process, in the order they were made, and
 * a write of up to PIPE_BUF bytes is never split. The log is then what `2>&1`
 * on a terminal shows, whole lines in order. Two pipes read in turn cannot
 * give that: the order between them is lost ("out1 out2 err1"), and a
 * message written in two pieces had a line of the other stream land between
 * them ("sh: 1: after"). Which stream a byte came from is not recoverable
 * from one pipe: it is all counted as stdout (report.c). Only when fd 1 and
 * fd 2 are different files does each stream get its own pipe, counted apart. */
#define _GNU_SOURCE
#include "relay.h"
#include "pace.h"
#include "report.h"
#include <poll.h>

/* relays[1] is unused (rd, wr -1) when one pipe carries both streams. */
struct relay relays[2] = { { -1, -1, 0, NULL }, { -1, -1, 0, NULL } };
static int relays_merged;  /* one pipe is the command's fd 1 and 2 (relays[1] unused) */
static int relay_draining; /* set once the sandbox is over: the reader's pace is no longer waited for */

#define RELAY_PIPE_SIZE (1 << 20)

/* fd 1 and fd 2 lead to the same place: one file (any kind), both open. */
static int
same_destination(void)
{
  struct stat a, b;
  return fstat(1, &a) == 0 && fstat(2, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The pipe(s) the command writes into, each read into its sink (log.c). */
void
relay_open(const struct spec *s)
{
  struct sink *to[2];
  relays_merged = same_destination();
  for (int i = 0; i < (relays_merged ? 1 : 2); i++)
    {
      int p[2];
      if (pipe2(p, O_CLOEXEC) < 0)
        die_with_error("pipe2");
      relays[i].rd = p[0];
      relays[i].wr = p[1];
      /* Drained without blocking once the sandbox is over (relay_drain). */
      if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)
        die_with_error("fcntl");
      /* 1 MiB rather than 64 KiB: a command that prints fast and the relay
       * take turns 16 times less often (best effort: a user past its pipe
       * quota keeps the default). */
      (void)fcntl(p[0], F_SETPIPE_SZ, RELAY_PIPE_SIZE);
      /* `echo x > /dev/stderr` reopens the pipe through /proc: the sandbox's
       * user is not the pipe's owner when the caller is root (mapped away). */
      (void)fchmod(p[1], 0602);
    }
  sinks_open(s, relays_merged, to);
  relays[0].sink = to[0];
  relays[1].sink = to[1];
}

/* In init, before the command is forked: the pipe(s) become its fd 1 and 2. */
void
relay_into_stdio(void)
{
  int wr1 = relays[1].wr >= 0 ? relays[1].wr : relays[0].wr;
  if (dup2(relays[0].wr, 1) < 0 || dup2(wr1, 2) < 0)
    fail_step("fork", "dup2 of the output pipe");
  for (int i = 0; i < 2; i++)
    {
      if (relays[i].wr > 2)
        close(relays[i].wr);
      if (relays[i].rd >= 0)
        close(relays[i].rd);
    }
}

/* In the launcher, after the clone: only the sandbox keeps write ends. */
void
relay_close_writers(void)
{
  for (int i = 0; i < 2; i++)
    if (relays[i].wr >= 0)
      {
        close(relays[i].wr);
        relays[i].wr = -1;
      }
}

/* Copies what the pipe holds now. Returns 0 once it reached EOF (and closed
 * it), 1 when more may come. The pipe is drained whatever the log does with
 * it (log.c: a cap, a full disk): the bytes are counted, they were the command's. */
int
relay_pump(struct relay *r)
{
  char buf[RELAY_READ];
  for (;;)
    {
      ssize_t n;
      /* Drained: nothing waits on the reader any more, but a ring would be
       * wrapped past it (the reader follows every byte of a ring: pace.c). */
      if ((!relay_draining || sink_followable(r->sink)) && pace_held(r->sink))
        return 1; /* the log's reader is behind: the command waits (pace.c) */
      n = TEMP_FAILURE_RETRY(read(r->rd, buf, sizeof buf));
      if (n < 0 && errno == EAGAIN)
        return 1;
      if (n <= 0)
        {
          close(r->rd);
          r->rd = -1;
          return 0;
        }
      r->bytes += n;
      sink_write(r->sink, buf, (size_t)n);
      if (sink_followable(r->sink) && r->sink->written > r->sink->head)
        pace_progress(r->sink, 0);
      if ((size_t)n < sizeof buf)
        return 1;
    }
}

/* Everything in the sandbox is dead: what is left in the pipes is all there is
 * (taken whatever the reader's pace: nothing is waiting on it any more). */
void
relay_drain(void)
{
  relay_draining = 1;
  for (int i = 0; i < 2; i++)
    while (relays[i].rd >= 0 && relay_pump(&relays[i]))
      {
        if (relays[i].rd >= 0 && sink_followable(relays[i].sink) && pace_held(relays[i].sink))
          {
            (void)poll(NULL, 0, 1); /* the ring's reader is behind (pace.c) */
            continue;
          }
        /* EAGAIN with a writer still alive (init's teardown races us): wait for it. */
        struct pollfd p = { relays[i].rd, POLLIN, 0 };
        if (poll(&p, 1, 1000) == 0)
          break;
      }
}
