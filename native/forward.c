/* sbx-launch: --forward-unix PATH:PORT, the sandbox's end of --allow-host.
 *
 * The sandbox keeps its own network namespace with loopback only. A small
 * process forked by init there listens on 127.0.0.1:PORT and carries each
 * connection, byte for byte, to the unix socket PATH (the host's egress proxy,
 * bound into the new root). It knows nothing of HTTP or of the allowlist: the
 * policy is the proxy's, outside the sandbox. */
#define _GNU_SOURCE
#include "forward.h"
#include "net.h"
#include "report.h"
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/un.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/capability.h>

#define FWD_BUF (256 * 1024)

/* Moves what one side has into the other through a pipe of our own
 * (splice: the bytes stay in the kernel); 0 at its EOF (the other side's
 * write half is shut then), -1 on an error. */
static int
pump(int from, int to, const int pipe[2])
{
  ssize_t n, m;
  n = TEMP_FAILURE_RETRY(splice(from, NULL, pipe[1], NULL, FWD_BUF, SPLICE_F_MOVE));
  if (n < 0)
    return -1;
  if (n == 0)
    {
      shutdown(to, SHUT_WR);
      return 0;
    }
  while (n > 0)
    {
      m = TEMP_FAILURE_RETRY(splice(pipe[0], NULL, to, NULL, (size_t)n, SPLICE_F_MOVE));
      if (m <= 0)
        return -1;
      n -= m;
    }
  return 1;
}

/* One connection, in its own process: until both directions are closed. */
static void __attribute__((noreturn)) carry(int tcp, const char *path)
{
  struct sockaddr_un sa;
  int up, open_in = 1, open_out = 1, in[2], out[2];
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  up = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (up < 0 || connect(up, (struct sockaddr *)&sa, sizeof sa) < 0 || pipe2(in, O_CLOEXEC) < 0 ||
      pipe2(out, O_CLOEXEC) < 0)
    _exit(1);
  /* A pipe as big as one splice: each read is written out whole. */
  (void)fcntl(in[1], F_SETPIPE_SZ, FWD_BUF);
  (void)fcntl(out[1], F_SETPIPE_SZ, FWD_BUF);
  while (open_in || open_out)
    {
      struct pollfd p[2] = { { open_in ? tcp : -1, POLLIN, 0 }, { open_out ? up : -1, POLLIN, 0 } };
      int r;
      if (TEMP_FAILURE_RETRY(poll(p, 2, -1)) < 0)
        _exit(1);
      if (p[0].revents)
        {
          r = pump(tcp, up, in);
          if (r < 0)
            _exit(1);
          open_in = r > 0;
        }
      if (p[1].revents)
        {
          r = pump(up, tcp, out);
          if (r < 0)
            _exit(1);
          open_out = r > 0;
        }
    }
  _exit(0);
}

/* The forwarder's loop: accept, fork, carry. Children are reaped by the
 * kernel (SIGCHLD ignored); all of them die with the pid namespace. */
static void __attribute__((noreturn)) forwarder(int lfd, const char *path)
{
  signal(SIGCHLD, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  for (;;)
    {
      int one = 1, c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
      pid_t p;
      if (c < 0)
        {
          if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE)
            continue;
          _exit(1);
        }
      setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      p = fork();
      if (p == 0)
        {
          close(lfd);
          carry(c, path);
        }
      close(c);
    }
}

/* Forked by init once the new root is in place (PATH is a path inside it) and
 * before the command may exec: the listener is up when the command starts. */
void
step_forward(const struct spec *s)
{
  struct sockaddr_in sin;
  int ready[2], err = 0, lfd, one = 1;
  ssize_t n;
  pid_t pid;
  if (s->forward_path == NULL)
    return;
  if (pipe2(ready, O_CLOEXEC) < 0)
    fail_step("forward", "pipe2");
  pid = fork();
  if (pid < 0)
    fail_step("forward", "forking the forwarder");
  if (pid == 0)
    {
      struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
      struct __user_cap_data_struct data[2];
      prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
      close(ready[0]);
      /* Nothing of init's but the ready pipe (not the go pipe, not the done
       * pipe: their EOFs must not wait for us). */
      if (ready[1] > 3)
        close_fds_range(3, (unsigned int)ready[1] - 1);
      close_fds_range((unsigned int)ready[1] + 1, ~0U);
      /* lo may not be up yet: the command brings it up in parallel. Up twice is no error. */
      err = lo_up();
      lfd = err ? -1 : socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      memset(&sin, 0, sizeof sin);
      sin.sin_family = AF_INET;
      sin.sin_port = htons((uint16_t)s->forward_port);
      sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      if (!err && (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
                   bind(lfd, (struct sockaddr *)&sin, sizeof sin) < 0 || listen(lfd, 128) < 0))
        err = errno;
      /* It needs no privilege from here on. */
      memset(data, 0, sizeof data);
      if (!err && (syscall(SYS_capset, &hdr, data) < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0))
        err = errno;
      (void)!write(ready[1], &err, sizeof err);
      close(ready[1]);
      if (err)
        _exit(1);
      forwarder(lfd, s->forward_path);
    }
  close(ready[1]);
  n = TEMP_FAILURE_RETRY(read(ready[0], &err, sizeof err));
  close(ready[0]);
  if (n != (ssize_t)sizeof err)
    fail_step("forward", "the forwarder died before listening");
  if (err)
    {
      errno = err;
      fail_step("forward", "listening on 127.0.0.1:%ld", s->forward_port);
    }
  record("forward", 1, "127.0.0.1:%ld -> %s", s->forward_port, s->forward_path);
}
