/* sbx-launch: the command's stdout and stderr, relayed. The command writes
 * into two pipes the launcher made; the launcher copies each into its own
 * fd 1 and fd 2 as data arrives and counts the bytes. The sandbox then never
 * holds a descriptor of the caller's (its log file), and the caller needs no
 * pipes of its own: sbx hands a file as fd 1 and 2, which is cheaper for a
 * Node host than streams (measured by bench/startup.js). */
#define _GNU_SOURCE
#include "sbx.h"

struct relay relays[2] = { { -1, -1, 1, 0, NULL }, { -1, -1, 2, 0, NULL } };

void
relay_open(void)
{
  for (int i = 0; i < 2; i++)
    {
      int p[2];
      if (pipe2(p, O_CLOEXEC) < 0)
        die_with_error("pipe2");
      relays[i].rd = p[0];
      relays[i].wr = p[1];
      /* Drained without blocking once the sandbox is over (relay_drain). */
      if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)
        die_with_error("fcntl");
    }
}

/* In init, before the command is forked: the pipes become its fd 1 and 2. */
void
relay_into_stdio(void)
{
  for (int i = 0; i < 2; i++)
    {
      if (dup2(relays[i].wr, relays[i].to) < 0)
        fail_step("fork", "dup2 of the output pipe");
      close(relays[i].wr);
      close(relays[i].rd);
    }
}

/* In the launcher, after the clone: only the sandbox keeps write ends. */
void
relay_close_writers(void)
{
  for (int i = 0; i < 2; i++)
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
  char buf[65536];
  for (;;)
    {
      ssize_t n = read(r->rd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
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
      if ((size_t)n < sizeof buf)
        return 1;
    }
}

/* Everything in the sandbox is dead: what is left in the pipes is all there is. */
void
relay_drain(void)
{
  for (int i = 0; i < 2; i++)
    while (relays[i].rd >= 0 && relay_pump(&relays[i]))
      {
        /* EAGAIN with a writer still alive (init's teardown races us): wait for it. */
        struct pollfd p = { relays[i].rd, POLLIN, 0 };
        if (poll(&p, 1, 1000) == 0)
          break;
      }
}
