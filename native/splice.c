/* sbx-launch --splice: the host side of an --allow-host tunnel's download, out of Node's hands.
 *
 * The egress proxy (src/launcher/egress-proxy.ts) carries a CONNECT tunnel's first bytes itself;
 * past a threshold it stops reading the origin and starts this with the origin's socket as fd 3
 * and the sandbox's side as fd 4: the bytes from 3 go to 4 through a pipe (splice: they stay in the
 * kernel) until the origin's EOF, which is passed on as a shutdown of 4's write half. The other
 * direction stays the proxy's. The descriptors are shared with the proxy and non-blocking: a step
 * that would block waits in poll. No policy here: the proxy admitted the tunnel. */
#define _GNU_SOURCE
#include "splice.h"
#include "util.h"
#include <poll.h>
#include <sys/socket.h>

#define SPLICE_BUF (1024 * 1024)

/* Waits until fd is ready for `events`; 0, or -1 on an error. */
static int
wait_for(int fd, short events)
{
  struct pollfd p = { fd, events, 0 };
  int r;
  r = TEMP_FAILURE_RETRY(poll(&p, 1, -1));
  return r < 0 ? -1 : 0;
}

/* One splice from `in` to `out`, waiting in poll (on `fd`, for `events`) while it would block: the
 * bytes moved, 0 at EOF, or -1 on an error. */
static ssize_t
move(int in, int out, size_t len, int fd, short events)
{
  for (;;)
    {
      ssize_t n = TEMP_FAILURE_RETRY(splice(in, NULL, out, NULL, len, SPLICE_F_MOVE | SPLICE_F_NONBLOCK));
      if (n >= 0)
        return n;
      if (errno == EAGAIN && wait_for(fd, events) == 0)
        continue;
      return -1;
    }
}

int
splice_main(void)
{
  const int from = 3, to = 4;
  int pipefd[2];
  signal(SIGPIPE, SIG_IGN);
  if (pipe2(pipefd, O_CLOEXEC) < 0)
    return 1;
  (void)fcntl(pipefd[1], F_SETPIPE_SZ, SPLICE_BUF);
  for (;;)
    {
      ssize_t n = move(from, pipefd[1], SPLICE_BUF, from, POLLIN);
      if (n < 0)
        return 1;
      if (n == 0)
        {
          shutdown(to, SHUT_WR);
          return 0;
        }
      while (n > 0)
        {
          ssize_t m = move(pipefd[0], to, (size_t)n, to, POLLOUT);
          if (m <= 0)
            return 1;
          n -= m;
        }
    }
}
