/* sbx-launch --serve: a resident spawner for a host process that runs many
 * sandboxes (the MCP server, a harness, a second run() in one process).
 * Forking a large host process (Node: tens of MB mapped) costs it
 * milliseconds per run; forking this small one costs microseconds. Each
 * request is run exactly as `sbx-launch --spec-fd` would run it, in a child
 * of this process; the server itself applies nothing and decides nothing.
 *
 * Frames on fd 0 (requests) and fd 1 (replies): a 4-byte little-endian
 * length, then NUL-terminated fields.
 *   run:   "r" id log-fd bpf-fd spec-arg...    (fds are the caller's: each
 *          is reopened through /proc/<caller>/fd/N, the very file the caller
 *          holds, never a path that could have been swapped)
 *   kill:  "k" id                              (SIGTERM to that launcher)
 *   reply: id exit-code signal status-json     (once the launcher has exited)
 *   first: "hello" proto                       (written once, at start)
 * EOF on fd 0: every launcher still running gets SIGTERM, then the server
 * exits once they are reaped. */
#define _GNU_SOURCE
#include "serve.h"
#include "ids.h"
#include "launch.h"
#include "spec.h"
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#define MAX_RUNNING 64
#define MAX_ARGS_SERVE (2 * MAX_OPS + 2 * MAX_ENV + 256)
#define MAX_FRAME (MAX_SPEC_BYTES + 256)

struct running
{
  pid_t pid;
  char id[32];
  int status_fd;
};

static struct running runs[MAX_RUNNING];
static pid_t caller;

static int
reopen_callers(const char *fd, int flags)
{
  char path[64];
  long n;
  if (parse_long(fd, -1, INT_MAX, &n) < 0 || n < 0)
    return -1;
  snprintf(path, sizeof path, "/proc/%ld/fd/%ld", (long)caller, n);
  return open(path, flags | O_CLOEXEC);
}

static void __attribute__((noreturn)) run_child(char **f, int nf, int status_fd)
{
  /* Read and write, as sbx opened it: a capped log's ring is read back (log.c). */
  int log = reopen_callers(f[2], O_RDWR);
  if (log < 0)
    log = reopen_callers(f[2], O_WRONLY);
  int bpf = reopen_callers(f[3], O_RDONLY);
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  char **argv = calloc((size_t)nf - 2, sizeof *argv);
  if (log < 0 || null < 0 || argv == NULL)
    _exit(EXIT_SETUP_FAILED);
  /* The descriptors sbx-launch --spec-fd gets: 0 /dev/null, 1 and 2 the
   * log, 3 the report, 4 the seccomp program. dup2 clears O_CLOEXEC. */
  if (dup2(null, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0 || dup2(status_fd, 3) < 0 ||
      (bpf >= 0 && dup2(bpf, 4) < 0))
    _exit(EXIT_SETUP_FAILED);
  argv[0] = "sbx-launch";
  for (int i = 4; i < nf; i++)
    argv[i - 3] = f[i];
  argv[nf - 3] = NULL;
  init_reaped_by_caller = 1;
  status_in_memory = 1;
  /* A session of its own, as its command has (--setsid). With the
   * scheduler's autogroups (a group per session, on by default) the
   * launchers of all runs otherwise share one group with this server's
   * caller, the resident sbx: on a busy machine eight runs at once then built
   * their sandboxes, and the resident its verdicts, on one group's share of
   * the CPU (issue 32). Ctrl-C to the caller's process group comes through
   * the server (serve). */
  (void)setsid();
  signal(SIGPIPE, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  exit(launcher_main(nf - 3, argv));
}

static void
reply(const char *id, int wstatus, int status_fd)
{
  static char buf[65536 + 128];
  int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
  int n = snprintf(buf + 4, 128, "%s%c%d%c%d%c", id, 0, code, 0, sig, 0);
  ssize_t r = pread(status_fd, buf + 4 + n, sizeof buf - 4 - (size_t)n - 1, 0);
  uint32_t len = (uint32_t)n + (uint32_t)(r > 0 ? r : 0) + 1;
  buf[4 + len - 1] = '\0';
  memcpy(buf, &len, 4);
  (void)write_all(1, buf, 4 + len);
}

static void
start(char *payload, uint32_t len)
{
  char *f[MAX_ARGS_SERVE];
  int nf = 0;
  for (uint32_t i = 0; i < len && nf < MAX_ARGS_SERVE; i += (uint32_t)strlen(payload + i) + 1)
    f[nf++] = payload + i;
  if (nf >= 2 && strcmp(f[0], "k") == 0)
    {
      for (int i = 0; i < MAX_RUNNING; i++)
        if (runs[i].pid > 0 && strcmp(runs[i].id, f[1]) == 0)
          kill(runs[i].pid, SIGTERM);
      return;
    }
  if (nf < 5 || strcmp(f[0], "r") != 0 || strlen(f[1]) >= sizeof runs[0].id)
    die("--serve: a malformed request");
  int slot = -1;
  for (int i = 0; i < MAX_RUNNING && slot < 0; i++)
    if (runs[i].pid == 0)
      slot = i;
  int status_fd = (int)syscall(SYS_memfd_create, "sbx-status", 1U /* MFD_CLOEXEC */);
  if (slot < 0 || status_fd < 0)
    {
      /* Refused, not queued: the caller reports it (no report, exit 125). */
      if (status_fd >= 0)
        close(status_fd);
      reply(f[1], EXIT_SETUP_FAILED << 8, -1);
      return;
    }
  /* The id-mapping namespace the spec asks for (--map-uid/--map-gid, root
   * callers), made once and inherited by each launcher (ids.c). */
  {
    long mu = -1, mg = -1;
    for (int i = 4; i + 1 < nf; i++)
      {
        if (strcmp(f[i], "--map-uid") == 0)
          (void)parse_long(f[i + 1], 0, INT_MAX, &mu);
        else if (strcmp(f[i], "--map-gid") == 0)
          (void)parse_long(f[i + 1], 0, INT_MAX, &mg);
      }
    if (mu >= 0 && mg >= 0)
      idmap_keep(mu, mg);
  }
  pid_t pid = fork();
  if (pid == 0)
    run_child(f, nf, status_fd);
  if (pid < 0)
    {
      reply(f[1], EXIT_SETUP_FAILED << 8, status_fd);
      close(status_fd);
      return;
    }
  runs[slot].pid = pid;
  snprintf(runs[slot].id, sizeof runs[slot].id, "%s", f[1]);
  runs[slot].status_fd = status_fd;
}

static void
reap(void)
{
  int st;
  pid_t p;
  while ((p = waitpid(-1, &st, WNOHANG)) > 0)
    for (int i = 0; i < MAX_RUNNING; i++)
      if (runs[i].pid == p)
        {
          reply(runs[i].id, st, runs[i].status_fd);
          close(runs[i].status_fd);
          runs[i].pid = 0;
        }
}

int
serve(void)
{
  static char frame[MAX_FRAME];
  uint32_t have = 0;
  sigset_t mask;
  int sigfd, open_in = 1;
  caller = getppid();
  /* A launcher's init outlives it by the namespaces' teardown: reaped here. */
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
    die_with_error("PR_SET_CHILD_SUBREAPER");
  /* If the caller dies, so do we, and our launchers with us (theirs is SIGTERM). */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != caller)
    return 1;
  /* Ctrl-C reaches the caller's process group, this server in it, but not
   * the launchers, each a session of its own (run_child): it is read here
   * and passed on to them, which stop their sandboxes and report them
   * interrupted; this server stays alive to pass the reports on. It goes
   * with its caller (PDEATHSIG) or its EOF. */
  sigemptyset(&mask);
  sigaddset(&mask, SIGCHLD);
  sigaddset(&mask, SIGINT);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  signal(SIGPIPE, SIG_IGN);
  sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
  if (sigfd < 0)
    die_with_error("signalfd");
  {
    /* Ready, and which protocol its launchers speak. */
    char hello[64];
    uint32_t len = (uint32_t)snprintf(hello + 4, sizeof hello - 4, "hello%c%d", 0, SBX_PROTO) + 1;
    memcpy(hello, &len, 4);
    if (write_all(1, hello, 4 + len) < 0)
      return 1;
  }
  for (;;)
    {
      int busy = 0;
      for (int i = 0; i < MAX_RUNNING; i++)
        busy |= runs[i].pid > 0;
      if (!open_in && !busy)
        {
          /* Inits of the last runs may still be exiting: reaped before we go. */
          while (TEMP_FAILURE_RETRY(waitpid(-1, NULL, 0)) > 0)
            ;
          return 0;
        }
      struct pollfd pfd[2] = { { sigfd, POLLIN, 0 }, { open_in ? 0 : -1, POLLIN, 0 } };
      if (TEMP_FAILURE_RETRY(poll(pfd, 2, -1)) < 0)
        die_with_error("poll");
      if (pfd[0].revents)
        {
          struct signalfd_siginfo si;
          if (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si && si.ssi_signo == SIGINT)
            for (int i = 0; i < MAX_RUNNING; i++)
              if (runs[i].pid > 0)
                kill(runs[i].pid, SIGINT);
          reap();
        }
      if (pfd[1].revents)
        {
          ssize_t n = TEMP_FAILURE_RETRY(read(0, frame + have, sizeof frame - have));
          if (n <= 0)
            {
              open_in = 0;
              for (int i = 0; i < MAX_RUNNING; i++)
                if (runs[i].pid > 0)
                  kill(runs[i].pid, SIGTERM);
              continue;
            }
          have += (uint32_t)n;
          for (;;)
            {
              uint32_t len;
              if (have < 4)
                break;
              memcpy(&len, frame, 4);
              if (len > MAX_FRAME - 4)
                die("--serve: a request of %u bytes", len);
              if (have < 4 + len)
                break;
              start(frame + 4, len);
              memmove(frame, frame + 4 + len, have - 4 - len);
              have -= 4 + len;
            }
        }
    }
}
