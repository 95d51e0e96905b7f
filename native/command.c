/* sbx-launch: the command process's own steps, then execve. */
#define _GNU_SOURCE
#include "command.h"
#include "landlock.h"
#include "net.h"
#include "report.h"
#include <grp.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#ifndef KEYCTL_JOIN_SESSION_KEYRING
#define KEYCTL_JOIN_SESSION_KEYRING 1
#endif

static void
cmd_rlimits(const struct spec *s)
{
  int i;
  for (i = 0; i < s->nrlimits; i++)
    {
      const struct rlim *r = &s->rlimits[i];
      struct rlimit cur, want;
      char name[32];
      snprintf(name, sizeof name, "rlimit_%s", r->name);
      if (getrlimit(r->resource, &cur) < 0)
        {
          record(name, 0, "getrlimit: %s", strerror(errno));
          continue;
        }
      want.rlim_cur = want.rlim_max = r->value;
      /* Lowering is always allowed; a value above the hard limit we were given
       * is clamped to it rather than failing the run. */
      if (cur.rlim_max != RLIM_INFINITY && (r->value == RLIM_INFINITY || r->value > cur.rlim_max))
        want.rlim_cur = want.rlim_max = cur.rlim_max;
      if (setrlimit(r->resource, &want) < 0)
        record(name, 0, "setrlimit: %s", strerror(errno));
      else if (want.rlim_cur == RLIM_INFINITY)
        record(name, 1, "inf");
      else
        record(name, 1, "%llu", (unsigned long long)want.rlim_cur);
    }
}

static void
cmd_drop_caps(const struct spec *s)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2];
  if (!s->drop_caps)
    return;
  memset(data, 0, sizeof data);
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
    fail_step("caps", "clearing ambient capabilities");
  if (syscall(SYS_capset, &hdr, data) < 0)
    fail_step("caps", "capset to empty");
  record("caps", 1, "effective, permitted and inheritable sets empty");
}

static void
cmd_seccomp(const struct spec *s)
{
  if (s->bpf != NULL)
    {
      struct sock_fprog prog = { s->bpf_len, s->bpf };
      if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
        fail_step("seccomp", "installing the seccomp filter (%u instructions)", s->bpf_len);
      record("seccomp", 1, "%u instructions", s->bpf_len);
    }
}

/* The command process. Forked by init as soon as init exists, it applies its
 * own, per-process steps while init builds the mount tree, then waits for
 * init's go and execs: the two halves of the setup overlap.
 *
 * Ordering: no_new_privs before seccomp (the kernel demands it of an
 * unprivileged filter); seccomp after every step that needs a call it denies
 * (personality); after it only read(2) of the go pipe, the Landlock ruleset
 * (landlock.c: it opens the new root's paths, so after the go), chdir(2) and
 * execve(2). */
void __attribute__((noreturn)) run_command(const struct spec *s, int go_fd)
{
  sigset_t none;
  const char *dir = s->chdir_path ? s->chdir_path : "/";
  char go = 0;
  ssize_t n;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGPIPE, SIG_DFL);

  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
    fail_step("pdeathsig", "PR_SET_PDEATHSIG");
  step_netns_make();
  if (s->setsid)
    {
      /* A new session has no controlling terminal: TIOCSTI cannot push
       * keystrokes into the caller's terminal. */
      if (setsid() < 0)
        fail_step("setsid", "setsid");
      record("setsid", 1, "new session, no controlling terminal");
    }
  umask(022);
  cmd_rlimits(s);
  if (s->no_aslr)
    {
      if (personality(ADDR_NO_RANDOMIZE) < 0)
        fail_step("no_aslr", "personality(ADDR_NO_RANDOMIZE)");
      record("no_aslr", 1, "ADDR_NO_RANDOMIZE");
    }
  if (s->env_set)
    {
      environ = (char **)s->env;
      record("env", 1, "%d variable(s), host environment dropped", s->nenv);
    }
  /* lo is brought up here, in parallel with init's mount work, while this
   * process still holds CAP_NET_ADMIN over the new network namespace. */
  step_loopback(s);
  if (s->new_keyring)
    {
      /* The caller's session keyring (and the keys in it) would be reachable
       * through keyctl(2) where seccomp allows it: join a fresh, anonymous one. */
      if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) >= 0)
        record("keyring", 1, "fresh anonymous session keyring");
      else
        record("keyring", 0, "joining a new session keyring: %s", strerror(errno));
    }
  cmd_drop_caps(s);
  if (s->no_new_privs)
    {
      if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        fail_step("no_new_privs", "PR_SET_NO_NEW_PRIVS");
      record("no_new_privs", 1, "set");
    }
  /* Nothing of the launcher's reaches the command but stdio (the go pipe is
   * close-on-exec). */
  if (go_fd > 3)
    close_fds_range(3, (unsigned int)go_fd - 1);
  close_fds_range((unsigned int)go_fd + 1, ~0U);
  /* The filter is loaded here, beside init's mounts (~0.1 ms, off the path
   * from the go to the exec). Landlock names paths of the new root: it waits
   * for init's go, and its calls (landlock_*, an O_PATH openat, close) are
   * ones the filter allows. */
  cmd_seccomp(s);
  n = TEMP_FAILURE_RETRY(read(go_fd, &go, 1));
  if (n != 1)
    _exit(EXIT_SETUP_FAILED); /* init failed and recorded why */
  if (s->landlock)
    step_landlock(s);
  if (chdir(dir) < 0)
    fail_step("chdir", "%s", dir);
  rep->t_exec_ns = now_ns();
  /* execvp searches the PATH of environ, which is now the sandbox's. */
  execvp(s->argv[0], s->argv);
  rep->exec_errno = errno;
  _exit(127);
}

/* Written by init once the command and everything it left behind are gone;
 * the launcher polls the read end. Its EOF also means init died. */
