/* sbx-launch: applies a sandbox spec given on the command line (or a pipe), runs one
 * command inside it and writes a JSON status report to a file descriptor.
 *
 * The launcher holds no policy. The TypeScript side (src/launcher/) decides
 * which namespaces, mounts, limits and seccomp program a profile means; this
 * program parses that spec, rejects bad combinations, then applies it as a
 * linear list of small steps. Every step is recorded in the report as taken
 * or not, with the reason, so the caller can say exactly which isolation held.
 *
 * Process layout:
 *
 *   launcher (host namespaces)      parses, clones, enforces the wall-clock
 *    |                              timeout, writes the status report
 *    +- init (pid 1 of the sandbox) maps ids, builds the root, pivots, then
 *        |                          reaps; when the command exits, init exits
 *        |                          and the kernel kills the whole pid namespace
 *        +- command                 setsid, rlimits, no_new_privs, seccomp, execve
 *
 * The three processes share one anonymous MAP_SHARED page (struct report):
 * init and the command write their steps there and the launcher reads it
 * after init is gone, so no pipes or sync protocol are needed.
 */
#define _GNU_SOURCE
#include "launch.h"
#include "cgroup.h"
#include "command.h"
#include "forward.h"
#include "ids.h"
#include "mount.h"
#include "net.h"
#include "pace.h"
#include "relay.h"
#include "report.h"
#include "spec.h"
#include <poll.h>
#include <sched.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

static int done_pipe[2] = { -1, -1 };
int init_reaped_by_caller;
int status_in_memory;

/* pid 1 of the sandbox. */
static void __attribute__((noreturn)) run_init(const struct spec *s)
{
  pid_t child;
  /* If the launcher dies, the whole sandbox goes with it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  /* Only the launcher writes the report: its pipe's EOF must not wait for us. */
  int go[2];
  close(s->status_fd);
  close(done_pipe[0]);
  relay_into_stdio();
  /* Mapped ids are taken before the command is forked, so that it inherits them. */
  if (s->map_uid >= 0)
    step_mapped_ids(s);
  if (pipe2(go, O_CLOEXEC) < 0)
    fail_step("fork", "pipe2");
  netns_prepare(s);
  child = fork();
  if (child < 0)
    fail_step("fork", "forking the command");
  if (child == 0)
    {
      close(go[1]);
      run_command(s, go[0]);
    }
  close(go[0]);
  netns_forked(child);
  /* The caller sees EOF on stdout/stderr as soon as the command's processes
   * are gone; init keeps no copy. */
  close(0);
  close(1);
  close(2);

  if ((s->ns_flags & CLONE_NEWUSER) && s->map_uid < 0)
    step_id_maps(s);
  if (s->ns_flags & CLONE_NEWNS)
    step_root(s);
  step_hostname(s);
  join_netns(); /* if no sysfs mount joined it */
  /* After the new root (the socket's path is inside it), before the go: the
   * command finds the listener up. */
  step_forward(s);
  /* Setup done: let the command exec. On any failure above init exits, the
   * pipe reads EOF and the command gives up. If the command already failed
   * its own steps (EPIPE), it is reaped below and its failure reported. */
  signal(SIGPIPE, SIG_IGN);
  (void)!write(go[1], "g", 1);
  close(go[1]);

  for (;;)
    {
      int st;
      struct rusage ru;
      pid_t p = TEMP_FAILURE_RETRY(wait4(-1, &st, 0, &ru));
      if (p < 0)
        break;
      if (p == child)
        {
          rep->t_exit_ns = now_ns();
          rep->wstatus = st;
          rep->ru = ru;
          rep->have_status = 1;
          break;
        }
    }
  /* Background jobs do not outlive the command: kill what is left of the pid
   * namespace and reap it, then tell the launcher. The namespaces' teardown
   * happens as init exits, after the report is out. */
  /* As pid 1, kill(-1) reaches exactly the sandbox's processes. Anywhere
   * else it would reach every process we may signal on the host, so it is
   * checked here again, not only in parse_spec. */
  if ((s->ns_flags & CLONE_NEWPID) && getpid() == 1)
    {
      kill(-1, SIGKILL);
      while (TEMP_FAILURE_RETRY(wait4(-1, NULL, 0, NULL)) > 0)
        ;
    }
  (void)!write(done_pipe[1], "d", 1);
  _exit(0);
}

/* Clones init into the requested namespaces (and cgroup, atomically, with
 * CLONE_INTO_CGROUP). Returns the pid in the parent, 0 in init. */
static pid_t
clone_init(const struct spec *s)
{
  struct clone_args args;
  long r;
  /* A new network namespace is made by the command (net.c). */
  unsigned long flags = s->ns_flags & ~(netns_deferred(s) ? (unsigned long)CLONE_NEWNET : 0UL);
  memset(&args, 0, sizeof args);
  args.flags = flags;
  args.exit_signal = SIGCHLD;
  if (cgroup_fd >= 0)
    {
      args.flags |= CLONE_INTO_CGROUP;
      args.cgroup = (uint64_t)cgroup_fd;
    }
  r = syscall(SYS_clone3, &args, sizeof args);
  if (r < 0 && cgroup_fd >= 0)
    {
      /* Refused into the cgroup (EACCES, EBUSY, or an old kernel): run
       * without it and say so, rather than not at all. */
      record("cgroup", 0, "clone3 into %s: %s", cgroup_path, strerror(errno));
      close(cgroup_fd);
      cgroup_fd = -1;
      rmdir(cgroup_path);
      cgroup_path[0] = '\0';
      args.flags &= ~(uint64_t)CLONE_INTO_CGROUP;
      args.cgroup = 0;
      r = syscall(SYS_clone3, &args, sizeof args);
    }
  if (r < 0 && errno == ENOSYS)
    r = syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
  return (pid_t)r;
}

struct supervision
{
  int timed_out, interrupted, reported, init_reaped, init_status;
};

/* The launcher's wait: for init's "done" (or its death: EOF on the pipe), a
 * signal (SIGTERM/SIGINT/SIGHUP kill the sandbox), or the deadline (kills it
 * too). Killing pid 1 takes the whole pid namespace down. */
static void
supervise(pid_t init, int sigfd, int64_t deadline, struct supervision *sv)
{
  int killed = 0;
  memset(sv, 0, sizeof *sv);
  for (;;)
    {
      struct pollfd pfd[4] = {
        { sigfd, POLLIN, 0 }, { done_pipe[0], POLLIN, 0 }, { relays[0].rd, POLLIN, 0 }, { relays[1].rd, POLLIN, 0 }
      };
      struct signalfd_siginfo si;
      int timeout = -1, n, held = 0;
      /* A pipe whose log's reader is behind is not read; its reader is looked at again in 1 ms (pace.c). */
      for (int i = 0; i < 2; i++)
        if (relays[i].rd >= 0 && pace_held(relays[i].sink))
          pfd[2 + i].fd = -1, held = 1;
      if (deadline && !killed)
        {
          /* The timeout is the command's: counted from its exec once that is
           * known (a set-up slowed by a loaded host does not eat it), from the
           * launcher's start until then (a set-up that hangs is bounded too). */
          int64_t left = (rep->t_exec_ns ? rep->t_exec_ns - t_start + deadline : deadline) - now_ns();
          if (left <= 0)
            {
              sv->timed_out = killed = 1;
              /* Killing pid 1 takes the whole pid namespace down, double-forked
               * and setsid'd children included. */
              kill(init, SIGKILL);
              continue;
            }
          timeout = (int)((left + 999999) / 1000000);
        }
      if (held && (timeout < 0 || timeout > 1))
        timeout = 1;
      n = poll(pfd, 4, timeout);
      if (n < 0 && errno == EINTR)
        continue; /* not TEMP_FAILURE_RETRY: the timeout is counted again from the deadline */
      if (n < 0)
        die_with_error("poll");
      for (int i = 0; i < 2; i++)
        if (pfd[2 + i].revents)
          relay_pump(&relays[i]);
      if (pfd[1].revents)
        {
          char c;
          if (read(done_pipe[0], &c, 1) == 1 && rep->have_status && !sv->timed_out && !sv->interrupted)
            {
              /* Everything in the sandbox is dead: report now, reap init after. */
              sv->reported = 1;
              break;
            }
          close(done_pipe[0]);
          done_pipe[0] = -1;
        }
      if (pfd[0].revents && read(sigfd, &si, sizeof si) == (ssize_t)sizeof si)
        {
          if (si.ssi_signo == SIGCHLD)
            {
              if (waitpid(init, &sv->init_status, WNOHANG) == init)
                {
                  sv->init_reaped = 1;
                  break;
                }
              continue;
            }
          sv->interrupted = killed = 1;
          kill(init, SIGKILL);
        }
    }
}

/* The status of this run into the caller's fd: the report page with what
 * only the launcher holds (relay counts, log totals, the cgroup's). */
static void
report_status(const struct spec *s, int64_t t0, int64_t t_end, int timed_out, int interrupted, int init_status)
{
  struct status st = { .t0 = t0,
                       .t_end = t_end,
                       .timed_out = timed_out,
                       .interrupted = interrupted,
                       .init_status = init_status,
                       .stdout_bytes = relays[0].bytes,
                       .stderr_bytes = relays[1].bytes,
                       .cgroup_path = cgroup_path };
  sinks_total(&st.log_cap, &st.log_dropped, &st.log_unwritten, &st.log_errno);
  if (cgroup_path[0])
    st.oom_kills = cgroup_oom_kills();
  write_status(s->status_fd, &st);
}

/* One run of the launcher: what its steps hand each other. */
struct launch
{
  struct spec s;
  int64_t t0, deadline, t_end;
  int sigfd;
  pid_t init;
  struct supervision sv;
};

/* The spec from argv or --spec-fd, its seccomp program, and nothing of our
 * caller's descriptors left open. */
static void
take_spec(struct launch *l, int argc, char **argv)
{
  if (argc == 3 && strcmp(argv[1], "--spec-fd") == 0)
    read_spec_fd(&argc, &argv);
  parse_spec(&l->s, argc, argv);
  read_seccomp(&l->s);
  close_inherited_fds(&l->s, idmap_kept_fd());
}

/* The report page, shared with init and the command across the clone. */
static void
share_report(struct launch *l)
{
  (void)l;
  rep = mmap(NULL, sizeof *rep, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (rep == MAP_FAILED)
    die_with_error("mmap");
  outer_uid = (long)getuid();
  outer_gid = (long)getgid();
}

/* Signals the launcher acts on are read from a signalfd:
 * SIGCHLD ends the wait, SIGTERM/SIGINT/SIGHUP kill the sandbox. */
static void
catch_signals(struct launch *l)
{
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGCHLD);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  /* If our caller dies, we get SIGTERM and take the sandbox down with us. */
  {
    pid_t ppid = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) == 0 && getppid() != ppid)
      kill(getpid(), SIGTERM); /* it died before prctl took effect */
  }
  l->sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
  if (l->sigfd < 0)
    die_with_error("signalfd");
  if (pipe2(done_pipe, O_CLOEXEC) < 0)
    die_with_error("pipe2");
}

/* The command's output pipes and their sinks, the reader's pace, and the report's room. */
static void
open_output(struct launch *l)
{
  relay_open(&l->s);
  pace_open(&l->s);
  /* The report's room, taken before the command can fill the disk: written
   * into blocks already there, it still gets out when the log could not.
   * A --serve memfd has no disk to fill: 16 pages less to zero per run. */
  if (!status_in_memory)
    (void)fallocate(l->s.status_fd, FALLOC_FL_KEEP_SIZE, 0, 65536);
}

/* --map-uid (host root callers): the maps' pipe and the idmapped trees. */
static void
prepare_ids(struct launch *l)
{
  if (l->s.map_uid >= 0)
    {
      if (outer_uid != 0)
        die("--map-uid is for host root callers (this is uid %ld)", outer_uid);
      if (pipe2(maps_pipe, O_CLOEXEC) < 0)
        die_with_error("pipe2");
      prepare_trees(&l->s);
    }
  idmap_drop(); /* a --serve launcher's copy, when its spec maps no ids (prepare_trees drops it too) */
}

static void
prepare_limits(struct launch *l)
{
  step_cgroup(&l->s);
  if (l->s.timeout_ms > 0)
    l->deadline = l->t0 + l->s.timeout_ms * 1000000LL;
}

/* Clones init, which never returns from here. -1 (the report written) when
 * the namespaces could not be made. */
static int
start_init(struct launch *l)
{
  const struct spec *s = &l->s;
  l->init = clone_init(s);
  if (l->init < 0)
    {
      rep->failed = 1;
      rep->fail_errno = errno;
      snprintf(rep->fail_step, sizeof rep->fail_step, "%s", (s->ns_flags & CLONE_NEWUSER) ? "userns" : "clone");
      snprintf(rep->fail_detail, sizeof rep->fail_detail, "clone3 with namespace flags 0x%lx", s->ns_flags);
      report_status(s, l->t0, now_ns(), 0, 0, 0);
      if (cgroup_path[0])
        rmdir(cgroup_path);
      return -1;
    }
  if (l->init == 0)
    {
      /* Steps decided before the clone are recorded from init, so that the
       * report lists them in order. */
      for (size_t k = 0; k < n_ns_names; k++)
        if (ns_names[k].clone_flag != CLONE_NEWUSER && ns_names[k].clone_flag != CLONE_NEWNS &&
            !(ns_names[k].clone_flag == CLONE_NEWNET && netns_deferred(s))) /* recorded once joined */
          record(ns_names[k].step, (s->ns_flags & ns_names[k].clone_flag) != 0, "%s",
                 (s->ns_flags & ns_names[k].clone_flag) ? "new" : "host");
      if (cgroup_path[0])
        record("cgroup", 1, "%s", cgroup_path);
      run_init(s);
    }
  return 0;
}

/* In the launcher after the clone: the sandbox alone holds the pipes' write
 * ends, and init gets its id maps. */
static void
hand_over(struct launch *l)
{
  close(done_pipe[1]);
  relay_close_writers();
  /* A caller's fd 1 or 2 that is gone costs the relayed bytes, not the run.
   * Only here, after the clone: an ignored SIGPIPE would be inherited by the
   * command. */
  signal(SIGPIPE, SIG_IGN);
  /* Likewise a log past RLIMIT_FSIZE: its write fails with EFBIG (log.c), the run goes on. */
  signal(SIGXFSZ, SIG_IGN);
  if (l->s.map_uid >= 0)
    {
      /* init waits for its maps; without them it fails its userns step. */
      if (write_init_maps(&l->s, l->init) < 0)
        kill(l->init, SIGKILL);
      for (int i = 0; i < l->s.nops; i++)
        if (l->s.ops[i].tree_fd >= 0)
          close(l->s.ops[i].tree_fd);
    }
}

/* The output drained, the log ordered, the status written, init reaped
 * (or left to --serve), the cgroup removed. */
static void
finish(struct launch *l)
{
  struct supervision *sv = &l->sv;
  l->t_end = now_ns();
  relay_drain();
  sinks_finish();
  if (cgroup_path[0] && !sv->init_reaped)
    {
      /* The cgroup can only be removed, and its counters are only final, once
       * init is gone. */
      (void)TEMP_FAILURE_RETRY(waitpid(l->init, &sv->init_status, 0));
      sv->init_reaped = 1;
    }
  report_status(&l->s, l->t0, l->t_end, sv->timed_out, sv->interrupted, sv->init_status);
  close(l->s.status_fd);
  if (sv->reported)
    {
      /* A caller that reads fd 1 and 2 as pipes sees their end now, not after
       * the namespaces' teardown (sbx passes files and waits for our exit). */
      close(1);
      close(2);
    }
  /* Under sbx-launch --serve (a subreaper), init, already exiting, is left
   * to the server to reap: the caller need not wait for the namespaces'
   * teardown. Not with a cgroup, which can only be removed once init is gone. */
  if (!sv->init_reaped && !(init_reaped_by_caller && sv->reported && !cgroup_path[0]))
    (void)TEMP_FAILURE_RETRY(waitpid(l->init, &sv->init_status, 0));
  if (cgroup_path[0] && rmdir(cgroup_path) < 0 && errno == EBUSY)
    {
      /* Processes of a killed pid namespace can take a moment to be reaped. */
      for (int tries = 0; tries < 50 && rmdir(cgroup_path) < 0 && errno == EBUSY; tries++)
        usleep(2000);
    }
}

/* The launcher's exit: the command's code, 128 + its signal, or 125 when set-up failed. */
static int
exit_code(void)
{
  if (rep->failed)
    return EXIT_SETUP_FAILED;
  if (rep->have_status)
    return WIFEXITED(rep->wstatus) ? WEXITSTATUS(rep->wstatus) : 128 + WTERMSIG(rep->wstatus);
  return 128 + SIGKILL;
}

/* One sandbox, from its spec to its report: the whole of `sbx-launch`, and
 * of each child of `sbx-launch --serve`. A flat list of steps; each one that
 * fails before the clone dies with its message, after it fails into the report. */
int
launcher_main(int argc, char **argv)
{
  struct launch l; /* not zeroed whole: parse_spec clears the spec, supervise its record */

  l.t0 = t_start = now_ns();
  l.deadline = 0;

  if (argc == 2 && strcmp(argv[1], "--version") == 0)
    {
      printf("sbx-launch %s proto %d\n", SBX_VERSION, SBX_PROTO);
      return 0;
    }
  take_spec(&l, argc, argv);
  share_report(&l);
  catch_signals(&l);
  open_output(&l);
  prepare_ids(&l);
  prepare_limits(&l);
  if (start_init(&l) < 0)
    return EXIT_SETUP_FAILED;
  hand_over(&l);
  supervise(l.init, l.sigfd, l.deadline, &l.sv);
  finish(&l);
  return exit_code();
}
