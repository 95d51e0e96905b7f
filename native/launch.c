/* sbx-launch: applies a sandbox spec given on the command line, runs one
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
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>

#define SBX_VERSION "0.1.0"
/* Bumped whenever the spec flags or the report shape change; the TypeScript
 * side refuses a launcher whose protocol differs. */
#define SBX_PROTO 3

#define PREFIX "sbx-launch: "
#define MAX_OPS 128
#define MAX_ENV 256
#define MAX_RLIMITS 16
#define MAX_CGROUP_SETS 8
#define MAX_STEPS 64
#define MAX_BPF_INSNS 4096
/* init exits with this when a setup step failed; the details are in the report. */
#define EXIT_SETUP_FAILED 125
#define MAX_SPEC_BYTES (1 << 20)
#ifndef KEYCTL_JOIN_SESSION_KEYRING
#define KEYCTL_JOIN_SESSION_KEYRING 1
#endif

extern char **environ;

/* ---------------------------------------------------------------- helpers */

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void close_fds_range(unsigned int first, unsigned int last);
static void die_with_error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void
die(const char *fmt, ...)
{
  va_list ap;
  fputs(PREFIX, stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(EXIT_SETUP_FAILED);
}

static void
die_with_error(const char *fmt, ...)
{
  int saved = errno;
  va_list ap;
  fputs(PREFIX, stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, ": %s\n", strerror(saved));
  exit(EXIT_SETUP_FAILED);
}

static int64_t
now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int
write_all(int fd, const char *buf, size_t len)
{
  while (len > 0)
    {
      ssize_t n = write(fd, buf, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      buf += n;
      len -= (size_t)n;
    }
  return 0;
}

/* Writes a small string to a file, as needed for /proc/self/uid_map and
 * friends (one write(2), which those files require). Returns 0 or -1/errno. */
static int
write_file(const char *path, const char *content)
{
  int fd, r, saved;
  do
    fd = open(path, O_WRONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return -1;
  r = write_all(fd, content, strlen(content));
  saved = errno;
  close(fd);
  errno = saved;
  return r;
}

static int
parse_long(const char *s, long min, long max, long *out)
{
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
    return -1;
  *out = v;
  return 0;
}

/* ----------------------------------------------------------------- report */

struct step
{
  char name[32];
  int ok;
  int64_t at_ns; /* since the launcher started: where setup time goes */
  char detail[160];
};

/* Lives in one MAP_SHARED page set up before clone: written by init and the
 * command, read by the launcher once init has exited. */
struct report
{
  int nsteps;
  struct step steps[MAX_STEPS];
  int failed;
  char fail_step[32];
  int fail_errno;
  char fail_detail[256];
  int exec_errno;
  int64_t t_exec_ns;
  int64_t t_exit_ns;
  int have_status;
  int wstatus;
  struct rusage ru;
};

static struct report *rep;
static int64_t t_start;

static void
record(const char *name, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
record(const char *name, int ok, const char *fmt, ...)
{
  struct step *s;
  va_list ap;
  /* init and the command record concurrently into the shared page. */
  int i = __atomic_fetch_add(&rep->nsteps, 1, __ATOMIC_RELAXED);
  if (i >= MAX_STEPS)
    return;
  s = &rep->steps[i];
  s->at_ns = now_ns() - t_start;
  snprintf(s->name, sizeof s->name, "%s", name);
  s->ok = ok;
  va_start(ap, fmt);
  vsnprintf(s->detail, sizeof s->detail, fmt, ap);
  va_end(ap);
}

/* Records a failed setup step (with errno) and ends the calling process. */
static void fail_step(const char *step, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

static void
fail_step(const char *step, const char *fmt, ...)
{
  int saved = errno;
  va_list ap;
  int expected = 0;
  if (__atomic_compare_exchange_n(&rep->failed, &expected, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    {
      rep->fail_errno = saved;
      snprintf(rep->fail_step, sizeof rep->fail_step, "%s", step);
      va_start(ap, fmt);
      vsnprintf(rep->fail_detail, sizeof rep->fail_detail, fmt, ap);
      va_end(ap);
    }
  _exit(EXIT_SETUP_FAILED);
}

/* ------------------------------------------------------------------- spec */

enum op_kind
{
  OP_RO_BIND,
  OP_BIND,
  OP_SYMLINK,
  OP_TMPFS,
  OP_DEV,
  OP_PROC,
  OP_SYSFS,
  OP_REMOUNT_RO,
  OP_HIDE,
  OP_HIDE_EMPTY,
  OP_DIR,
};

struct op
{
  enum op_kind kind;
  const char *a; /* source / link target; NULL when unused */
  const char *b; /* destination inside the sandbox */
  long size;     /* tmpfs size= in bytes (OP_TMPFS; OP_DEV: its /dev/shm), 0: the kernel's default */
  long inodes;   /* tmpfs nr_inodes= */
  int idmap;     /* OP_BIND/OP_RO_BIND with --map-uid: show the host's root-owned files as the sandbox user's */
  int tree_fd;   /* with --map-uid: the source, cloned by the launcher (open_tree), attached by init */
};

struct rlim
{
  const char *name;
  int resource;
  rlim_t value;
};

struct cgroup_set
{
  const char *file;
  const char *value;
};

struct spec
{
  int status_fd;
  int seccomp_fd;
  unsigned long ns_flags;
  long uid, gid;
  long map_uid, map_gid; /* -1, or the host ids the sandbox user maps to (host root callers) */
  const char *hostname;
  struct op ops[MAX_OPS];
  int nops;
  const char *chdir_path;
  char *env[MAX_ENV + 1];
  int nenv;
  int env_set;
  struct rlim rlimits[MAX_RLIMITS];
  int nrlimits;
  int no_aslr, no_new_privs, setsid, loopback, ro_root, drop_caps, new_keyring;
  long pid_max;
  long timeout_ms;
  const char *cgroup;
  struct cgroup_set cgroup_sets[MAX_CGROUP_SETS];
  int ncgroup_sets;
  const char *cgroup_reason;
  char **argv;
  struct sock_filter *bpf;
  unsigned short bpf_len;
};

static const struct
{
  const char *name;
  int resource;
} rlimit_names[] = {
  { "CPU", RLIMIT_CPU },       { "NOFILE", RLIMIT_NOFILE }, { "FSIZE", RLIMIT_FSIZE },
  { "NPROC", RLIMIT_NPROC },   { "CORE", RLIMIT_CORE },     { "AS", RLIMIT_AS },
  { "DATA", RLIMIT_DATA },     { "STACK", RLIMIT_STACK },   { "MEMLOCK", RLIMIT_MEMLOCK },
  { "MSGQUEUE", RLIMIT_MSGQUEUE },
};

static const struct
{
  const char *flag;
  const char *step;
  unsigned long clone_flag;
} ns_names[] = {
  { "--unshare-user", "userns", CLONE_NEWUSER }, { "--unshare-pid", "pidns", CLONE_NEWPID },
  { "--unshare-mount", "mntns", CLONE_NEWNS },   { "--unshare-net", "netns", CLONE_NEWNET },
  { "--unshare-uts", "utsns", CLONE_NEWUTS },    { "--unshare-ipc", "ipcns", CLONE_NEWIPC },
  { "--unshare-cgroup", "cgroupns", CLONE_NEWCGROUP },
};

static void
usage(void)
{
  fputs("usage: sbx-launch --version\n"
        "       sbx-launch [SPEC...] -- COMMAND [ARG...]\n"
        "       sbx-launch --spec-fd N   (the same, NUL-separated, read from fd N)\n"
        "SPEC is produced by sbx (src/launcher/spec.ts); it is not meant to be written by hand.\n",
        stderr);
  exit(2);
}

static void
add_op(struct spec *s, enum op_kind kind, const char *a, const char *b)
{
  if (s->nops >= MAX_OPS)
    die("too many mount operations (max %d)", MAX_OPS);
  if (b[0] != '/')
    die("destination must be absolute: %s", b);
  s->ops[s->nops].kind = kind;
  s->ops[s->nops].a = a;
  s->ops[s->nops].b = b;
  s->ops[s->nops].size = 0;
  s->ops[s->nops].inodes = 0;
  s->ops[s->nops].idmap = 0;
  s->ops[s->nops].tree_fd = -1;
  s->nops++;
}

static int
parse_fd(const char *s)
{
  long v;
  if (parse_long(s, 0, INT_MAX, &v) < 0)
    die("bad file descriptor: %s", s);
  if (fcntl((int)v, F_SETFD, FD_CLOEXEC) < 0)
    die_with_error("fd %ld", v);
  return (int)v;
}

static void
parse_spec(struct spec *s, int argc, char **argv)
{
  int i;
  size_t k;
  memset(s, 0, sizeof *s);
  s->status_fd = -1;
  s->seccomp_fd = -1;
  s->uid = -1;
  s->gid = -1;
  s->map_uid = -1;
  s->map_gid = -1;

/* An expression, so that "NEED(1), x = argv[++i];" reads as one statement. */
#define NEED(n) ((i + (n) >= argc) ? die("%s needs %d argument(s)", a, (n)) : (void)0)

  for (i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      int matched = 0;
      long v;
      if (strcmp(a, "--") == 0)
        {
          s->argv = &argv[i + 1];
          break;
        }
      for (k = 0; k < sizeof ns_names / sizeof ns_names[0]; k++)
        if (strcmp(a, ns_names[k].flag) == 0)
          {
            s->ns_flags |= ns_names[k].clone_flag;
            matched = 1;
          }
      if (matched)
        continue;
      if (strcmp(a, "--status-fd") == 0)
        NEED(1), s->status_fd = parse_fd(argv[++i]);
      else if (strcmp(a, "--seccomp-fd") == 0)
        NEED(1), s->seccomp_fd = parse_fd(argv[++i]);
      else if (strcmp(a, "--uid") == 0 || strcmp(a, "--gid") == 0)
        {
          NEED(1);
          if (parse_long(argv[++i], 0, 65533, &v) < 0)
            die("%s: bad id %s", a, argv[i]);
          if (a[2] == 'u')
            s->uid = v;
          else
            s->gid = v;
        }
      else if (strcmp(a, "--map-uid") == 0 || strcmp(a, "--map-gid") == 0)
        {
          NEED(1);
          if (parse_long(argv[++i], 1, 4294967294L, &v) < 0)
            die("%s: bad host id %s", a, argv[i]);
          if (a[6] == 'u')
            s->map_uid = v;
          else
            s->map_gid = v;
        }
      else if (strcmp(a, "--idmap") == 0)
        {
          /* The bind just before is shown id-mapped (needs --map-uid). */
          struct op *last = s->nops > 0 ? &s->ops[s->nops - 1] : NULL;
          if (last == NULL || (last->kind != OP_BIND && last->kind != OP_RO_BIND))
            die("--idmap must follow --bind or --ro-bind");
          last->idmap = 1;
        }
      else if (strcmp(a, "--hostname") == 0)
        NEED(1), s->hostname = argv[++i];
      else if (strcmp(a, "--ro-bind") == 0)
        NEED(2), add_op(s, OP_RO_BIND, argv[i + 1], argv[i + 2]), i += 2;
      else if (strcmp(a, "--bind") == 0)
        NEED(2), add_op(s, OP_BIND, argv[i + 1], argv[i + 2]), i += 2;
      else if (strcmp(a, "--symlink") == 0)
        NEED(2), add_op(s, OP_SYMLINK, argv[i + 1], argv[i + 2]), i += 2;
      else if (strcmp(a, "--tmpfs") == 0)
        NEED(1), add_op(s, OP_TMPFS, NULL, argv[++i]);
      else if (strcmp(a, "--dev") == 0)
        NEED(1), add_op(s, OP_DEV, NULL, argv[++i]);
      else if (strcmp(a, "--proc") == 0)
        NEED(1), add_op(s, OP_PROC, NULL, argv[++i]);
      else if (strcmp(a, "--sysfs") == 0)
        NEED(1), add_op(s, OP_SYSFS, NULL, argv[++i]);
      else if (strcmp(a, "--remount-ro") == 0)
        NEED(1), add_op(s, OP_REMOUNT_RO, NULL, argv[++i]);
      else if (strcmp(a, "--hide") == 0)
        NEED(1), add_op(s, OP_HIDE, NULL, argv[++i]);
      else if (strcmp(a, "--hide-empty") == 0)
        NEED(1), add_op(s, OP_HIDE_EMPTY, NULL, argv[++i]);
      else if (strcmp(a, "--size") == 0 || strcmp(a, "--nr-inodes") == 0)
        {
          /* Limits of the tmpfs made by the op just before (--tmpfs; --dev: its /dev/shm). */
          struct op *last = s->nops > 0 ? &s->ops[s->nops - 1] : NULL;
          NEED(1);
          if (last == NULL || (last->kind != OP_TMPFS && last->kind != OP_DEV))
            die("%s must follow --tmpfs or --dev", a);
          if (parse_long(argv[++i], 1, LONG_MAX, &v) < 0)
            die("bad %s: %s", a, argv[i]);
          if (a[2] == 's')
            last->size = v;
          else
            last->inodes = v;
        }
      else if (strcmp(a, "--dir") == 0)
        NEED(1), add_op(s, OP_DIR, NULL, argv[++i]);
      else if (strcmp(a, "--chdir") == 0)
        NEED(1), s->chdir_path = argv[++i];
      else if (strcmp(a, "--setenv") == 0)
        {
          size_t n;
          char *kv;
          NEED(2);
          if (s->nenv >= MAX_ENV)
            die("too many environment variables (max %d)", MAX_ENV);
          if (argv[i + 1][0] == '\0' || strchr(argv[i + 1], '=') != NULL)
            die("bad environment variable name: %s", argv[i + 1]);
          n = strlen(argv[i + 1]) + strlen(argv[i + 2]) + 2;
          kv = malloc(n);
          if (kv == NULL)
            die("out of memory");
          snprintf(kv, n, "%s=%s", argv[i + 1], argv[i + 2]);
          s->env[s->nenv++] = kv;
          s->env_set = 1;
          i += 2;
        }
      else if (strcmp(a, "--clearenv") == 0)
        s->env_set = 1;
      else if (strcmp(a, "--rlimit") == 0)
        {
          struct rlim *r;
          int found = -1;
          NEED(2);
          if (s->nrlimits >= MAX_RLIMITS)
            die("too many rlimits");
          for (k = 0; k < sizeof rlimit_names / sizeof rlimit_names[0]; k++)
            if (strcmp(argv[i + 1], rlimit_names[k].name) == 0)
              found = (int)k;
          if (found < 0)
            die("unknown rlimit: %s", argv[i + 1]);
          r = &s->rlimits[s->nrlimits++];
          r->name = rlimit_names[found].name;
          r->resource = rlimit_names[found].resource;
          if (strcmp(argv[i + 2], "inf") == 0)
            r->value = RLIM_INFINITY;
          else if (parse_long(argv[i + 2], 0, LONG_MAX, &v) == 0)
            r->value = (rlim_t)v;
          else
            die("bad rlimit value: %s", argv[i + 2]);
          i += 2;
        }
      else if (strcmp(a, "--no-aslr") == 0)
        s->no_aslr = 1;
      else if (strcmp(a, "--no-new-privs") == 0)
        s->no_new_privs = 1;
      else if (strcmp(a, "--setsid") == 0)
        s->setsid = 1;
      else if (strcmp(a, "--loopback") == 0)
        s->loopback = 1;
      else if (strcmp(a, "--ro-root") == 0)
        s->ro_root = 1;
      else if (strcmp(a, "--drop-caps") == 0)
        s->drop_caps = 1;
      else if (strcmp(a, "--new-session-keyring") == 0)
        s->new_keyring = 1;
      else if (strcmp(a, "--pid-max") == 0)
        {
          NEED(1);
          if (parse_long(argv[++i], 301, 4194304, &s->pid_max) < 0)
            die("bad --pid-max: %s (301..4194304)", argv[i]);
        }
      else if (strcmp(a, "--timeout-ms") == 0)
        {
          NEED(1);
          if (parse_long(argv[++i], 1, LONG_MAX / 1000000, &s->timeout_ms) < 0)
            die("bad --timeout-ms: %s", argv[i]);
        }
      else if (strcmp(a, "--cgroup") == 0)
        NEED(1), s->cgroup = argv[++i];
      else if (strcmp(a, "--cgroup-set") == 0)
        {
          NEED(2);
          if (s->ncgroup_sets >= MAX_CGROUP_SETS)
            die("too many --cgroup-set");
          if (strchr(argv[i + 1], '/') != NULL)
            die("bad cgroup file: %s", argv[i + 1]);
          s->cgroup_sets[s->ncgroup_sets].file = argv[i + 1];
          s->cgroup_sets[s->ncgroup_sets].value = argv[i + 2];
          s->ncgroup_sets++;
          i += 2;
        }
      else if (strcmp(a, "--cgroup-skip") == 0)
        NEED(1), s->cgroup_reason = argv[++i];
      else
        die("unknown option: %s", a);
    }
#undef NEED

  /* Reject bad combinations before acting on anything. */
  if (s->argv == NULL || s->argv[0] == NULL)
    usage();
  if (s->status_fd < 0)
    die("--status-fd is required");
  if (s->nops > 0 && !(s->ns_flags & CLONE_NEWNS))
    die("mount operations need --unshare-mount");
  if (!(s->ns_flags & CLONE_NEWUSER))
    die("--unshare-user is required (sbx-launch never uses host privileges)");
  /* init must be pid 1 of its own pid namespace: that is what makes its
   * final kill(-1) reach the sandbox and nothing else. */
  if (!(s->ns_flags & CLONE_NEWPID))
    die("--unshare-pid is required (init must be pid 1 of the sandbox)");
  for (i = 0; i < s->nops; i++)
    {
      if (s->ops[i].kind == OP_SYSFS && !(s->ns_flags & CLONE_NEWNET))
        die("--sysfs needs --unshare-net (use --ro-bind /sys /sys with the host network)");
    }
  if (s->ro_root && !(s->ns_flags & CLONE_NEWNS))
    die("--ro-root needs --unshare-mount");
  if (s->hostname && !(s->ns_flags & CLONE_NEWUTS))
    die("--hostname needs --unshare-uts");
  if (s->loopback && !(s->ns_flags & CLONE_NEWNET))
    die("--loopback needs --unshare-net");
  if (s->ncgroup_sets > 0 && s->cgroup == NULL)
    die("--cgroup-set needs --cgroup");
  if ((s->map_uid >= 0) != (s->map_gid >= 0))
    die("--map-uid and --map-gid go together");
  if (s->map_uid >= 0 && (s->uid < 0 || s->gid < 0))
    die("--map-uid needs --uid and --gid");
  for (i = 0; i < s->nops; i++)
    if (s->ops[i].idmap && s->map_uid < 0)
      die("--idmap needs --map-uid");
  s->env[s->nenv] = NULL;
}

/* `--spec-fd N` as the only argument: the spec comes NUL-separated from fd N
 * instead of the command line, where every user of the host could read it in
 * /proc/PID/cmdline (values of --setenv may be secrets). Replaces argv. */
static void
read_spec_fd(int *argc, char ***argv)
{
  long v;
  char *buf, **out;
  size_t len = 0, n = 0, i, k;
  int fd;
  if (parse_long((*argv)[2], 0, INT_MAX, &v) < 0)
    die("bad --spec-fd: %s", (*argv)[2]);
  fd = (int)v;
  buf = malloc(MAX_SPEC_BYTES + 1);
  if (buf == NULL)
    die("out of memory");
  for (;;)
    {
      ssize_t r = read(fd, buf + len, MAX_SPEC_BYTES - len);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        die_with_error("reading the spec from fd %d", fd);
      if (r == 0)
        break;
      len += (size_t)r;
      if (len == MAX_SPEC_BYTES)
        die("spec too long (max %d bytes)", MAX_SPEC_BYTES);
    }
  close(fd);
  if (len == 0 || buf[len - 1] != '\0')
    die("the spec on fd %d must be NUL-terminated arguments", fd);
  for (i = 0; i < len; i++)
    n += buf[i] == '\0';
  out = calloc(n + 2, sizeof *out);
  if (out == NULL)
    die("out of memory");
  out[0] = (*argv)[0];
  for (i = 0, k = 1; i < len; i += strlen(buf + i) + 1)
    out[k++] = buf + i;
  out[k] = NULL;
  *argc = (int)k;
  *argv = out;
}

/* Closes every descriptor but stdio and the status report before anything is
 * cloned: nothing our caller left open (a log, a socket) reaches the sandbox. */
static void
close_inherited_fds(const struct spec *s)
{
  if (s->status_fd > 3)
    close_fds_range(3, (unsigned int)s->status_fd - 1);
  close_fds_range((unsigned int)(s->status_fd < 3 ? 3 : s->status_fd + 1), ~0U);
}

/* Reads the classic BPF program (struct sock_filter[]) until EOF, like
 * bwrap --seccomp FD. It is installed later, in the command process. */
static void
read_seccomp(struct spec *s)
{
  size_t cap = MAX_BPF_INSNS * sizeof(struct sock_filter) + 1;
  size_t len = 0;
  char *buf;
  if (s->seccomp_fd < 0)
    return;
  buf = malloc(cap);
  if (buf == NULL)
    die("out of memory");
  /* A regular file (sbx passes one it keeps open across runs) is read from
   * offset 0 with pread, so that the shared file offset does not matter; a
   * pipe falls back to read. */
  for (int use_read = 0;;)
    {
      ssize_t n = use_read ? read(s->seccomp_fd, buf + len, cap - len)
                           : pread(s->seccomp_fd, buf + len, cap - len, (off_t)len);
      if (n < 0 && errno == ESPIPE && !use_read)
        {
          use_read = 1;
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        die_with_error("reading the seccomp program");
      if (n == 0)
        break;
      len += (size_t)n;
      if (len == cap)
        die("seccomp program too long (max %d instructions)", MAX_BPF_INSNS);
    }
  close(s->seccomp_fd);
  if (len == 0 || len % sizeof(struct sock_filter) != 0)
    die("seccomp program has a bad length: %zu bytes", len);
  s->bpf = (struct sock_filter *)buf;
  s->bpf_len = (unsigned short)(len / sizeof(struct sock_filter));
}

/* ------------------------------------------------------------- init steps */

static long outer_uid, outer_gid;
/* With --map-uid the launcher writes init's id maps (only a process privileged
 * over the parent namespace may map ids other than its own) and then says so
 * on this pipe. */
static int maps_pipe[2] = { -1, -1 };

/* Host root callers: the sandbox user is not root's kuid but an unprivileged
 * host id, so root's own files outside the work dir (/opt, /root, 0600 keys)
 * are as closed to it as to any other user. init takes that id and keeps its
 * capabilities over the new namespaces (it was never root there). */
static void
step_mapped_ids(const struct spec *s)
{
  char c;
  ssize_t n;
  close(maps_pipe[1]);
  do
    n = read(maps_pipe[0], &c, 1);
  while (n < 0 && errno == EINTR);
  close(maps_pipe[0]);
  if (n != 1)
    fail_step("userns", "the launcher did not write the id maps");
  if (setgroups(0, NULL) < 0)
    fail_step("userns", "dropping supplementary groups");
  if (setresgid((gid_t)s->gid, (gid_t)s->gid, (gid_t)s->gid) < 0
      || setresuid((uid_t)s->uid, (uid_t)s->uid, (uid_t)s->uid) < 0)
    fail_step("userns", "taking uid %ld gid %ld", s->uid, s->gid);
  /* A change of ids clears the dumpable flag; /proc/self/fd (mount targets)
   * needs it back. */
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  record("userns", 1, "uid %ld gid %ld mapped to host %ld:%ld (not the caller's: root), no supplementary groups",
         s->uid, s->gid, s->map_uid, s->map_gid);
}

/* Run by the launcher: init's maps, then the go-ahead. */
static int
write_init_maps(const struct spec *s, pid_t init)
{
  char path[64], map[64];
  int ok;
  snprintf(path, sizeof path, "/proc/%d/uid_map", (int)init);
  snprintf(map, sizeof map, "%ld %ld 1\n", s->uid, s->map_uid);
  ok = write_file(path, map) == 0;
  snprintf(path, sizeof path, "/proc/%d/gid_map", (int)init);
  snprintf(map, sizeof map, "%ld %ld 1\n", s->gid, s->map_gid);
  ok = ok && write_file(path, map) == 0;
  close(maps_pipe[0]);
  if (ok)
    (void)!write(maps_pipe[1], "m", 1);
  close(maps_pipe[1]);
  return ok ? 0 : -1;
}

/* A user namespace whose only purpose is an idmapped mount: host root (0)
 * shows as the sandbox user's host id, every other id as itself. Made by a
 * short-lived child; returns an fd of its namespace. */
static int
idmap_userns(const struct spec *s)
{
  char path[64], map[160];
  int p[2], fd = -1;
  pid_t child;
  if (pipe2(p, O_CLOEXEC) < 0)
    return -1;
  child = fork();
  if (child < 0)
    return -1;
  if (child == 0)
    {
      char c;
      if (unshare(CLONE_NEWUSER) < 0)
        _exit(1);
      close(p[1]);
      (void)!read(p[0], &c, 1);
      _exit(0);
    }
  close(p[0]);
  /* Wait until the child is in its own namespace. */
  for (int tries = 0; tries < 2000; tries++)
    {
      char a[64], b[64];
      ssize_t la, lb;
      snprintf(path, sizeof path, "/proc/%d/ns/user", (int)child);
      la = readlink(path, a, sizeof a);
      lb = readlink("/proc/self/ns/user", b, sizeof b);
      if (la > 0 && lb > 0 && (la != lb || memcmp(a, b, (size_t)la) != 0))
        break;
      usleep(100);
    }
  snprintf(map, sizeof map, "0 %ld 1\n1 1 %ld\n%ld %ld %ld\n", s->map_uid, s->map_uid - 1, s->map_uid + 1,
           s->map_uid + 1, 4294967295L - s->map_uid - 1);
  snprintf(path, sizeof path, "/proc/%d/uid_map", (int)child);
  if (write_file(path, map) == 0)
    {
      snprintf(map, sizeof map, "0 %ld 1\n1 1 %ld\n%ld %ld %ld\n", s->map_gid, s->map_gid - 1,
               s->map_gid + 1, s->map_gid + 1, 4294967295L - s->map_gid - 1);
      snprintf(path, sizeof path, "/proc/%d/gid_map", (int)child);
      if (write_file(path, map) == 0)
        {
          snprintf(path, sizeof path, "/proc/%d/ns/user", (int)child);
          fd = open(path, O_RDONLY | O_CLOEXEC);
        }
    }
  close(p[1]);
  while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
    ;
  return fd;
}

/* Run by the launcher with --map-uid, before the clone: every bind source is
 * cloned here (host root can reach it; the sandbox's unprivileged id might
 * not), id-mapped where asked, and handed to init as a detached tree. */
static void
prepare_trees(struct spec *s)
{
  int usfd = -1, i;
  for (i = 0; i < s->nops; i++)
    {
      struct op *op = &s->ops[i];
      if (op->kind != OP_BIND && op->kind != OP_RO_BIND)
        continue;
      op->tree_fd = (int)syscall(SYS_open_tree, AT_FDCWD, op->a,
                                 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
      if (op->tree_fd < 0)
        die_with_error("cloning the mount of %s", op->a);
      if (!op->idmap)
        continue;
      if (usfd < 0 && (usfd = idmap_userns(s)) < 0)
        die_with_error("making the user namespace for an idmapped mount");
      {
        struct mount_attr ma;
        memset(&ma, 0, sizeof ma);
        ma.attr_set = MOUNT_ATTR_IDMAP;
        ma.userns_fd = (uint64_t)usfd;
        if (syscall(SYS_mount_setattr, op->tree_fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &ma, sizeof ma) < 0)
          die_with_error("id-mapping %s (its file system may not support idmapped mounts; run sbx as an "
                         "ordinary user instead of root)",
                         op->a);
      }
    }
  if (usfd >= 0)
    close(usfd);
}

static void
step_id_maps(const struct spec *s)
{
  char map[64];
  long uid = s->uid >= 0 ? s->uid : outer_uid;
  long gid = s->gid >= 0 ? s->gid : outer_gid;
  /* An unprivileged process may map exactly its own ids, and only after it
   * gave up setgroups(2) for good. */
  if (write_file("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
    fail_step("userns", "writing /proc/self/setgroups");
  snprintf(map, sizeof map, "%ld %ld 1\n", uid, outer_uid);
  if (write_file("/proc/self/uid_map", map) < 0)
    fail_step("userns", "writing uid_map \"%ld %ld 1\"", uid, outer_uid);
  snprintf(map, sizeof map, "%ld %ld 1\n", gid, outer_gid);
  if (write_file("/proc/self/gid_map", map) < 0)
    fail_step("userns", "writing gid_map \"%ld %ld 1\"", gid, outer_gid);
  record("userns", 1, "uid %ld gid %ld mapped to %ld:%ld, setgroups denied", uid, gid, outer_uid,
         outer_gid);
}

static int
mkdir_p(char *path, mode_t mode)
{
  char *p;
  for (p = path + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir(path, mode) < 0 && errno != EEXIST)
          {
            *p = '/';
            return -1;
          }
        *p = '/';
      }
  if (mkdir(path, mode) < 0 && errno != EEXIST)
    return -1;
  return 0;
}

/* Creates a mount point of the right type (dir or empty file) at dst. */
static int
make_mount_point(char *dst, int is_dir)
{
  char *slash;
  int fd;
  if (is_dir)
    return mkdir_p(dst, 0755);
  slash = strrchr(dst, '/');
  if (slash != NULL && slash != dst)
    {
      *slash = '\0';
      if (mkdir_p(dst, 0755) < 0)
        {
          *slash = '/';
          return -1;
        }
      *slash = '/';
    }
  fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0444);
  if (fd < 0 && errno == EEXIST)
    return 0;
  if (fd < 0)
    return -1;
  close(fd);
  return 0;
}

static int mount_setattr_missing;

/* Sets attributes on a mount (and, with recursive, every mount below it).
 * mount_setattr(2) handles locked flags and submounts in one call; older
 * kernels get a remount of the top mount that repeats its current flags,
 * since the kernel refuses to clear locked flags inside a user namespace. */
static int
set_mount_attrs(const char *path, unsigned long long attrs, int recursive)
{
  struct mount_attr ma;
  struct statvfs sv;
  unsigned long ms = MS_REMOUNT | MS_BIND;
  if (!mount_setattr_missing)
    {
      memset(&ma, 0, sizeof ma);
      ma.attr_set = attrs;
      if (syscall(SYS_mount_setattr, AT_FDCWD, path, recursive ? AT_RECURSIVE : 0, &ma, sizeof ma)
          == 0)
        return 0;
      if (errno != ENOSYS)
        return -1;
      mount_setattr_missing = 1;
    }
  /* statvfs's ST_* bits equal the MS_* ones for these flags. */
  if (statvfs(path, &sv) == 0)
    ms |= sv.f_flag & (ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_NOATIME | ST_NODIRATIME | ST_RELATIME | ST_RDONLY);
  if (attrs & MOUNT_ATTR_RDONLY)
    ms |= MS_RDONLY;
  if (attrs & MOUNT_ATTR_NOSUID)
    ms |= MS_NOSUID;
  if (attrs & MOUNT_ATTR_NODEV)
    ms |= MS_NODEV;
  if (attrs & MOUNT_ATTR_NOEXEC)
    ms |= MS_NOEXEC;
  return mount(NULL, path, NULL, ms, NULL);
}

/* snprintf for paths: a path that does not fit fails the step instead of
 * being silently cut short. */
static void xpath(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
xpath(char *out, size_t n, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start(ap, fmt);
  r = vsnprintf(out, n, fmt, ap);
  va_end(ap);
  if (r < 0 || (size_t)r >= n)
    {
      errno = ENAMETOOLONG;
      fail_step("mount", "path too long: %s", out);
    }
}

static void
join(char *out, size_t n, const char *root, const char *path)
{
  if (snprintf(out, n, "%s%s", root, path) >= (int)n)
    {
      errno = ENAMETOOLONG;
      fail_step("mount", "path too long: %s", path);
    }
}

enum mp_make
{
  MP_EXISTING, /* create nothing: a missing path is ENOENT */
  MP_DIR,      /* create missing directories, the last one too */
  MP_FILE,     /* create missing directories and the last component as an empty file */
};

/* Resolves PATH (absolute, as the sandbox will see it) under /newroot one
 * component at a time and never through a symlink. While the new root is
 * assembled the host root is still mounted at /oldroot, so a symlink the
 * sandbox planted in /work on an earlier run (/work/.cache ->
 * ../../oldroot/etc) would otherwise steer a mkdir, or a mount, onto the
 * host. A symlink anywhere on the path fails with ELOOP. Mounts met on the
 * way are crossed (/newroot/work is the work dir's bind). Returns an O_PATH
 * descriptor of the last component, or -1 with errno set. */
static int
open_in_root(const char *path, enum mp_make make)
{
  char buf[PATH_MAX];
  char *comp, *next;
  int fd, nfd, e;
  struct stat st;
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
    {
      errno = ENAMETOOLONG;
      return -1;
    }
  fd = open("/newroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  for (comp = buf; *comp == '/'; comp++)
    ;
  while (*comp != '\0')
    {
      int last;
      next = strchr(comp, '/');
      if (next != NULL)
        {
          *next++ = '\0';
          while (*next == '/')
            next++;
        }
      last = next == NULL || *next == '\0';
      if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
        {
          close(fd);
          errno = EINVAL;
          return -1;
        }
      if (last && make == MP_FILE)
        {
          nfd = openat(fd, comp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
          if (nfd >= 0)
            close(nfd);
          else if (errno != EEXIST)
            goto fail;
        }
      else if (make != MP_EXISTING && mkdirat(fd, comp, 0755) < 0 && errno != EEXIST)
        goto fail;
      nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      if (nfd < 0)
        goto fail;
      close(fd);
      fd = nfd;
      if (fstat(fd, &st) < 0)
        goto fail;
      if (S_ISLNK(st.st_mode))
        {
          errno = ELOOP;
          goto fail;
        }
      if (!last && !S_ISDIR(st.st_mode))
        {
          errno = ENOTDIR;
          goto fail;
        }
      if (last)
        break;
      comp = next;
    }
  return fd;
fail:
  e = errno;
  close(fd);
  errno = e;
  return -1;
}

/* A path naming what fd refers to, for mount(2): the host's /proc magic
 * link, so that nothing between open_in_root and the mount can swap a
 * component for a symlink. Without a usable /proc (never seen on a host
 * that can make user namespaces) the checked path itself. */
static const char *
fd_target(char *out, size_t n, int fd, const char *checked)
{
  static int proc_ok = -1;
  if (proc_ok < 0)
    proc_ok = access("/oldroot/proc/self/fd", X_OK) == 0;
  if (proc_ok)
    xpath(out, n, "/oldroot/proc/self/fd/%d", fd);
  else
    join(out, n, "/newroot", checked);
  return out;
}

/* Opens the mount point at PATH (see open_in_root) or fails the step, with
 * its own message for a symlink on the way. */
static int
mount_point(const char *step, const char *path, enum mp_make make)
{
  int fd = open_in_root(path, make);
  if (fd < 0 && errno == ELOOP)
    fail_step(step, "%s crosses a symlink inside the sandbox (refused: it could lead out of the new root)",
              path);
  if (fd < 0)
    fail_step(step, "creating mount point %s", path);
  return fd;
}

static void
op_bind(const struct op *op, int ro)
{
  char src[PATH_MAX], target[PATH_MAX];
  struct stat st;
  int fd;
  if (op->tree_fd >= 0)
    {
      if (fstat(op->tree_fd, &st) < 0)
        fail_step("bind", "%s", op->a);
      fd = mount_point("bind", op->b, S_ISDIR(st.st_mode) ? MP_DIR : MP_FILE);
      if (syscall(SYS_move_mount, op->tree_fd, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
        fail_step("bind", "attaching %s on %s", op->a, op->b);
      close(op->tree_fd);
    }
  else
    {
      join(src, sizeof src, "/oldroot", op->a);
      if (stat(src, &st) < 0)
        fail_step("bind", "%s", op->a);
      fd = mount_point("bind", op->b, S_ISDIR(st.st_mode) ? MP_DIR : MP_FILE);
      if (mount(src, fd_target(target, sizeof target, fd, op->b), NULL, MS_BIND | MS_REC, NULL) < 0)
        fail_step("bind", "bind-mounting %s on %s", op->a, op->b);
    }
  close(fd);
  /* The flags go on the new mount: resolve again, which crosses into it. */
  fd = mount_point("bind", op->b, MP_EXISTING);
  if (set_mount_attrs(fd_target(target, sizeof target, fd, op->b),
                      (ro ? MOUNT_ATTR_RDONLY : 0) | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 1)
      < 0)
    fail_step("bind", "making %s %s", op->b, ro ? "read-only" : "nosuid");
  close(fd);
}

static void
op_symlink(const struct op *op)
{
  char parent[PATH_MAX];
  const char *name;
  char *slash;
  int fd;
  xpath(parent, sizeof parent, "%s", op->b);
  slash = strrchr(parent, '/');
  name = op->b + (slash - parent) + 1;
  *slash = '\0';
  fd = mount_point("symlink", parent, MP_DIR);
  if (symlinkat(op->a, fd, name) < 0 && errno != EEXIST)
    fail_step("symlink", "%s -> %s", op->b, op->a);
  close(fd);
}

/* tmpfs options: the mode, and size=/nr_inodes= when the spec set them (an
 * unbounded tmpfs can hold half the host's memory). */
static void
tmpfs_opts(char *out, size_t n, const char *mode, long size, long inodes)
{
  size_t len = (size_t)snprintf(out, n, "mode=%s", mode);
  if (size > 0 && len < n)
    len += (size_t)snprintf(out + len, n - len, ",size=%ld", size);
  if (inodes > 0 && len < n)
    snprintf(out + len, n - len, ",nr_inodes=%ld", inodes);
}

static void
op_tmpfs(const struct op *op)
{
  char target[PATH_MAX], opts[128];
  int fd = mount_point("tmpfs", op->b, MP_DIR);
  tmpfs_opts(opts, sizeof opts, "1777", op->size, op->inodes);
  if (mount("tmpfs", fd_target(target, sizeof target, fd, op->b), "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
    fail_step("tmpfs", "mounting a tmpfs on %s", op->b);
  close(fd);
  record("tmpfs", 1, "%s (%s)", op->b, opts);
}

static void
op_dev(const struct op *op)
{
  static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
  static const char *const links[][2] = {
    { "/proc/self/fd", "fd" },     { "/proc/self/fd/0", "stdin" }, { "/proc/self/fd/1", "stdout" },
    { "/proc/self/fd/2", "stderr" }, { "pts/ptmx", "ptmx" },       { "/proc/kcore", "core" },
  };
  char dev[PATH_MAX], p[PATH_MAX], src[PATH_MAX], opts[128];
  size_t k;
  int fd = mount_point("dev", op->b, MP_DIR);
  /* /dev holds a dozen nodes and links: a small fixed bound. */
  if (mount("tmpfs", fd_target(dev, sizeof dev, fd, op->b), "tmpfs", MS_NOSUID | MS_NOEXEC,
            "mode=0755,size=1m,nr_inodes=1024")
      < 0)
    fail_step("dev", "mounting a tmpfs on %s", op->b);
  close(fd);
  join(dev, sizeof dev, "/newroot", op->b);
  /* Device nodes cannot be created in a user namespace: bind the host's. */
  for (k = 0; k < sizeof nodes / sizeof nodes[0]; k++)
    {
      xpath(src, sizeof src, "/oldroot/dev/%s", nodes[k]);
      xpath(p, sizeof p, "%s/%s", dev, nodes[k]);
      if (make_mount_point(p, 0) < 0)
        fail_step("dev", "creating %s/%s", op->b, nodes[k]);
      if (mount(src, p, NULL, MS_BIND, NULL) < 0)
        fail_step("dev", "binding /dev/%s", nodes[k]);
    }
  for (k = 0; k < sizeof links / sizeof links[0]; k++)
    {
      if (strcmp(links[k][1], "core") == 0)
        continue;
      xpath(p, sizeof p, "%s/%s", dev, links[k][1]);
      if (symlink(links[k][0], p) < 0)
        fail_step("dev", "linking %s/%s", op->b, links[k][1]);
    }
  xpath(p, sizeof p, "%s/pts", dev);
  if (mkdir(p, 0755) < 0
      || mount("devpts", p, "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
             < 0)
    fail_step("dev", "mounting devpts on %s/pts", op->b);
  xpath(p, sizeof p, "%s/shm", dev);
  tmpfs_opts(opts, sizeof opts, "1777", op->size, op->inodes);
  if (mkdir(p, 01777) < 0 || mount("tmpfs", p, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
    fail_step("dev", "mounting a tmpfs on %s/shm", op->b);
  record("dev", 1, "%s: null zero full random urandom tty, pts, shm (%s), fd links", op->b, opts);
}

static void
op_proc(const struct op *op, const struct spec *s)
{
  char p[PATH_MAX], q[PATH_MAX], val[32];
  close(mount_point("proc", op->b, MP_DIR));
  join(p, sizeof p, "/newroot", op->b);
  /* The kernel refuses a fresh proc in a user namespace when the host's
   * /proc has parts hidden by over-mounts (as in many containers). */
  if (mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
    fail_step("proc", "mounting a fresh /proc");
  record("proc", 1, "fresh /proc for the new pid namespace");
  if (s->pid_max)
    {
      /* Since Linux 6.14 pid_max is per pid namespace and caps how many
       * processes the sandbox can hold, whatever the uid (RLIMIT_NPROC does
       * not bind a sandbox run by host root). Written before /proc/sys is
       * made read-only. */
      xpath(q, sizeof q, "%s/sys/kernel/pid_max", p);
      xpath(val, sizeof val, "%ld", s->pid_max);
      if (write_file(q, val) == 0)
        record("pid_max", 1, "%ld", s->pid_max);
      else
        record("pid_max", 0, "not per-namespace on this kernel (%s)", strerror(errno));
    }
}

static void
op_sysfs(const struct op *op)
{
  char p[PATH_MAX];
  close(mount_point("sysfs", op->b, MP_DIR));
  join(p, sizeof p, "/newroot", op->b);
  if (mount("sysfs", p, "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
    fail_step("sysfs", "mounting a read-only sysfs on %s", op->b);
}

static int nmasked, nmask_failed;

static void
op_remount_ro(const struct op *op)
{
  char p[PATH_MAX];
  join(p, sizeof p, "/newroot", op->b);
  if (access(p, F_OK) < 0)
    return; /* nothing to protect */
  if (mount(p, p, NULL, MS_BIND | MS_REC, NULL) < 0
      || set_mount_attrs(p, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 1) < 0)
    {
      nmask_failed++;
      record("mask", 0, "%s: %s", op->b, strerror(errno));
      return;
    }
  nmasked++;
}

/* Hides a path behind an empty, mode-000 stand-in: even a sandbox user that
 * owns the original (host root's files map to it when root runs sbx) gets
 * EACCES, since it holds no CAP_DAC_OVERRIDE. With `empty`, a directory
 * becomes an empty read-only one instead (mode 0555), so that tools walking
 * the tree (find, grep -r, node --test) see nothing rather than an error.
 * A missing path has nothing to hide; a symlink on the way fails the step:
 * what it points to would stay visible. */
static void
op_hide(const struct op *op, int empty)
{
  char p[PATH_MAX];
  struct stat st;
  int r, fd = open_in_root(op->b, MP_EXISTING);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return;
  if (fd < 0 && errno == ELOOP)
    fail_step("hide", "%s is or crosses a symlink: refused, since hiding it would leave its target visible",
              op->b);
  if (fd < 0 || fstat(fd, &st) < 0)
    fail_step("hide", "%s", op->b);
  fd_target(p, sizeof p, fd, op->b);
  if (S_ISDIR(st.st_mode))
    r = mount("tmpfs", p, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
              empty ? "mode=0555,size=4k,nr_inodes=1" : "mode=000,size=4k,nr_inodes=1");
  else
    r = mount("/.sbx-void", p, NULL, MS_BIND, NULL);
  close(fd);
  if (r < 0)
    {
      nmask_failed++;
      record("mask", 0, "%s: %s", op->b, strerror(errno));
      return;
    }
  nmasked++;
}

static void
op_dir(const struct op *op)
{
  close(mount_point("dir", op->b, MP_DIR));
}

/* Builds the new root as bwrap does: a tmpfs becomes / with the host root
 * under /oldroot, so sources (even ones under the host's /tmp) stay reachable
 * while the new tree is assembled under /newroot; then the host root is
 * detached and /newroot pivoted to /. */
static void
step_root(const struct spec *s)
{
  int i;
  /* Nothing we mount may propagate back to the host. */
  if (mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) < 0)
    fail_step("mntns", "making / a slave mount");
  record("mntns", 1, "private mount namespace, no propagation to the host");
  if (mount("tmpfs", "/tmp", "tmpfs", MS_NODEV | MS_NOSUID, "mode=0755") < 0)
    fail_step("root", "mounting the staging tmpfs on /tmp");
  if (chdir("/tmp") < 0 || mkdir("newroot", 0755) < 0 || mkdir("oldroot", 0755) < 0)
    fail_step("root", "preparing the staging tmpfs");
  if (syscall(SYS_pivot_root, ".", "oldroot") < 0)
    fail_step("pivot_root", "pivot_root to the staging tmpfs");
  if (chdir("/") < 0)
    fail_step("root", "chdir /");
  /* The root holds only mount points; it is made read-only at the end. */
  if (mount("tmpfs", "/newroot", "tmpfs", MS_NODEV | MS_NOSUID, "mode=0755,size=4m,nr_inodes=4096") < 0)
    fail_step("root", "mounting the root tmpfs");
  {
    /* The stand-in that --hide binds over files. */
    int fd = open("/.sbx-void", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
    if (fd < 0 || fchmod(fd, 0) < 0)
      fail_step("root", "creating the stand-in for hidden files");
    close(fd);
  }

  for (i = 0; i < s->nops; i++)
    {
      const struct op *op = &s->ops[i];
      switch (op->kind)
        {
        case OP_RO_BIND: op_bind(op, 1); break;
        case OP_BIND: op_bind(op, 0); break;
        case OP_SYMLINK: op_symlink(op); break;
        case OP_TMPFS: op_tmpfs(op); break;
        case OP_DEV: op_dev(op); break;
        case OP_PROC: op_proc(op, s); break;
        case OP_SYSFS: op_sysfs(op); break;
        case OP_REMOUNT_RO: op_remount_ro(op); break;
        case OP_HIDE: op_hide(op, 0); break;
        case OP_HIDE_EMPTY: op_hide(op, 1); break;
        case OP_DIR: op_dir(op); break;
        }
    }
  if (nmasked + nmask_failed > 0)
    record("proc_masked", nmask_failed == 0, "%d path(s) read-only or hidden, %d failed", nmasked,
           nmask_failed);

  /* Pivot into the new root with the staging tmpfs (and the host root below
   * it) stacked at /.sbx-old, then detach that whole tree in one lazy
   * unmount: nothing of the host's mount tree stays reachable. One detach,
   * not two: each costs an RCU grace period. */
  if (mkdir("/newroot/.sbx-old", 0700) < 0 || chdir("/newroot") < 0)
    fail_step("pivot_root", "preparing /newroot");
  if (syscall(SYS_pivot_root, ".", ".sbx-old") < 0)
    fail_step("pivot_root", "pivot_root to the new root");
  if (umount2("/.sbx-old", MNT_DETACH) < 0)
    fail_step("pivot_root", "detaching the host root");
  if (rmdir("/.sbx-old") < 0 || chdir("/") < 0)
    fail_step("pivot_root", "removing /.sbx-old");
  record("pivot_root", 1, "host root detached");

  if (s->ro_root)
    {
      /* Last, after every mount point was created. Only the root mount: the
       * binds below carry their own flags (/work and /tmp stay writable). */
      if (set_mount_attrs("/", MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0) < 0)
        fail_step("ro_root", "remounting / read-only");
      record("ro_root", 1, "/ read-only");
    }
}

static void
step_hostname(const struct spec *s)
{
  if (s->hostname == NULL)
    return;
  if (sethostname(s->hostname, strlen(s->hostname)) < 0)
    fail_step("hostname", "sethostname %s", s->hostname);
  if (setdomainname("", 0) < 0)
    fail_step("hostname", "setdomainname");
  record("hostname", 1, "%s", s->hostname);
}

/* Brings lo up with one raw RTM_NEWLINK (no libnl, no ip(8)). */
static void
step_loopback(const struct spec *s)
{
  struct
  {
    struct nlmsghdr nh;
    struct ifinfomsg ifi;
  } req;
  struct sockaddr_nl sa;
  char buf[512];
  struct nlmsghdr *nh;
  ssize_t n;
  int fd;
  if (!s->loopback)
    return;
  fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0)
    fail_step("loopback", "opening a netlink socket");
  memset(&req, 0, sizeof req);
  req.nh.nlmsg_len = sizeof req;
  req.nh.nlmsg_type = RTM_NEWLINK;
  req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
  req.nh.nlmsg_seq = 1;
  req.ifi.ifi_family = AF_UNSPEC;
  req.ifi.ifi_index = 1; /* lo is always ifindex 1 in a fresh network namespace */
  req.ifi.ifi_flags = IFF_UP;
  req.ifi.ifi_change = IFF_UP;
  memset(&sa, 0, sizeof sa);
  sa.nl_family = AF_NETLINK;
  if (sendto(fd, &req, sizeof req, 0, (struct sockaddr *)&sa, sizeof sa) < 0)
    fail_step("loopback", "sending RTM_NEWLINK");
  do
    n = recv(fd, buf, sizeof buf, 0);
  while (n < 0 && errno == EINTR);
  if (n < (ssize_t)sizeof(struct nlmsghdr))
    fail_step("loopback", "reading the netlink ack");
  nh = (struct nlmsghdr *)(void *)buf;
  if (nh->nlmsg_type == NLMSG_ERROR)
    {
      struct nlmsgerr *e = NLMSG_DATA(nh);
      if (e->error != 0)
        {
          errno = -e->error;
          fail_step("loopback", "RTM_NEWLINK lo up");
        }
    }
  close(fd);
  record("loopback", 1, "lo up");
}

/* ---------------------------------------------------------- command steps */

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
close_fds_range(unsigned int first, unsigned int last)
{
  if (first > last || syscall(SYS_close_range, first, last, 0) == 0)
    return;
  for (unsigned int fd = first; fd < 1024 && fd <= last; fd++)
    close((int)fd);
}

/* The command process. Forked by init as soon as init exists, it applies its
 * own, per-process steps while init builds the mount tree, then waits for
 * init's go and execs: the two halves of the setup overlap.
 *
 * Ordering: no_new_privs before seccomp (the kernel demands it of an
 * unprivileged filter); seccomp after every step that needs a call it denies
 * (personality); after it only read(2) of the go pipe, chdir(2) and execve(2). */
static void __attribute__((noreturn))
run_command(const struct spec *s, int go_fd)
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
  if (s->bpf != NULL)
    {
      struct sock_fprog prog = { s->bpf_len, s->bpf };
      if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
        fail_step("seccomp", "installing the seccomp filter (%u instructions)", s->bpf_len);
      record("seccomp", 1, "%u instructions", s->bpf_len);
    }
  do
    n = read(go_fd, &go, 1);
  while (n < 0 && errno == EINTR);
  if (n != 1)
    _exit(EXIT_SETUP_FAILED); /* init failed and recorded why */
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
static int done_pipe[2] = { -1, -1 };

/* pid 1 of the sandbox. */
static void __attribute__((noreturn))
run_init(const struct spec *s)
{
  pid_t child;
  /* If the launcher dies, the whole sandbox goes with it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  /* Only the launcher writes the report: its pipe's EOF must not wait for us. */
  int go[2];
  close(s->status_fd);
  close(done_pipe[0]);
  /* Mapped ids are taken before the command is forked, so that it inherits them. */
  if (s->map_uid >= 0)
    step_mapped_ids(s);
  if (pipe2(go, O_CLOEXEC) < 0)
    fail_step("fork", "pipe2");
  child = fork();
  if (child < 0)
    fail_step("fork", "forking the command");
  if (child == 0)
    {
      close(go[1]);
      run_command(s, go[0]);
    }
  close(go[0]);
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
      pid_t p = wait4(-1, &st, 0, &ru);
      if (p < 0 && errno == EINTR)
        continue;
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
      while (wait4(-1, NULL, 0, NULL) > 0 || errno == EINTR)
        ;
    }
  (void)!write(done_pipe[1], "d", 1);
  _exit(0);
}

/* --------------------------------------------------------------- launcher */

static int cgroup_fd = -1;
static char cgroup_path[PATH_MAX];

static void
step_cgroup(const struct spec *s)
{
  int i;
  if (s->cgroup == NULL)
    {
      record("cgroup", 0, "%s", s->cgroup_reason ? s->cgroup_reason : "not requested");
      return;
    }
  snprintf(cgroup_path, sizeof cgroup_path, "%s", s->cgroup);
  if (mkdir(cgroup_path, 0755) < 0)
    {
      record("cgroup", 0, "mkdir %s: %s", cgroup_path, strerror(errno));
      cgroup_path[0] = '\0';
      return;
    }
  for (i = 0; i < s->ncgroup_sets; i++)
    {
      char p[PATH_MAX + 64];
      snprintf(p, sizeof p, "%s/%s", cgroup_path, s->cgroup_sets[i].file);
      if (write_file(p, s->cgroup_sets[i].value) < 0)
        {
          record("cgroup", 0, "writing %s: %s", s->cgroup_sets[i].file, strerror(errno));
          rmdir(cgroup_path);
          cgroup_path[0] = '\0';
          return;
        }
    }
  cgroup_fd = open(cgroup_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (cgroup_fd < 0)
    {
      record("cgroup", 0, "open %s: %s", cgroup_path, strerror(errno));
      rmdir(cgroup_path);
      cgroup_path[0] = '\0';
      return;
    }
}

static long
cgroup_oom_kills(void)
{
  char p[PATH_MAX + 32], buf[1024];
  const char *k;
  ssize_t n;
  int fd;
  snprintf(p, sizeof p, "%s/memory.events", cgroup_path);
  fd = open(p, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  k = strstr(buf, "oom_kill ");
  return k ? strtol(k + 9, NULL, 10) : 0;
}

/* Clones init into the requested namespaces (and cgroup, atomically, with
 * CLONE_INTO_CGROUP). Returns the pid in the parent, 0 in init. */
static pid_t
clone_init(const struct spec *s)
{
  struct clone_args args;
  long r;
  memset(&args, 0, sizeof args);
  args.flags = s->ns_flags;
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
    r = syscall(SYS_clone, (unsigned long)s->ns_flags | SIGCHLD, NULL, NULL, NULL, NULL);
  return (pid_t)r;
}

/* -------------------------------------------------------------- JSON out */

struct buf
{
  char *p;
  size_t len, cap;
};

static void
bput(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
bput(struct buf *b, const char *fmt, ...)
{
  va_list ap;
  int n;
  for (;;)
    {
      va_start(ap, fmt);
      n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
      va_end(ap);
      if (n < 0)
        return;
      if ((size_t)n < b->cap - b->len)
        {
          b->len += (size_t)n;
          return;
        }
      b->cap = (b->cap + (size_t)n) * 2;
      b->p = realloc(b->p, b->cap);
      if (b->p == NULL)
        die("out of memory");
    }
}

static void
bstr(struct buf *b, const char *s)
{
  bput(b, "\"");
  for (; *s; s++)
    {
      unsigned char c = (unsigned char)*s;
      if (c == '"' || c == '\\')
        bput(b, "\\%c", c);
      else if (c < 0x20)
        bput(b, "\\u%04x", c);
      else
        bput(b, "%c", c);
    }
  bput(b, "\"");
}

static void
write_status(const struct spec *s, int64_t t0, int64_t t_end, int timed_out, int interrupted,
             int init_status)
{
  struct buf b = { malloc(8192), 0, 8192 };
  int i;
  if (b.p == NULL)
    die("out of memory");
  bput(&b, "{\"proto\":%d,\"version\":\"%s\",", SBX_PROTO, SBX_VERSION);
  bput(&b, "\"timed_out\":%s,\"interrupted\":%s,", timed_out ? "true" : "false",
       interrupted ? "true" : "false");
  if (rep->have_status && WIFEXITED(rep->wstatus))
    bput(&b, "\"exit_code\":%d,\"signal\":null,", WEXITSTATUS(rep->wstatus));
  else if (rep->have_status && WIFSIGNALED(rep->wstatus))
    bput(&b, "\"exit_code\":null,\"signal\":%d,", WTERMSIG(rep->wstatus));
  else if (timed_out || interrupted)
    bput(&b, "\"exit_code\":null,\"signal\":%d,", SIGKILL);
  else
    bput(&b, "\"exit_code\":null,\"signal\":null,");
  bput(&b, "\"exec_errno\":%d,", rep->exec_errno);
  bput(&b, "\"setup_ns\":%lld,", (long long)((rep->t_exec_ns ? rep->t_exec_ns : t_end) - t0));
  bput(&b, "\"wall_ns\":%lld,",
       (long long)(rep->t_exec_ns ? (rep->t_exit_ns ? rep->t_exit_ns : t_end) - rep->t_exec_ns : 0));
  bput(&b, "\"teardown_ns\":%lld,", (long long)(rep->t_exit_ns ? t_end - rep->t_exit_ns : 0));
  bput(&b, "\"rusage\":{\"user_us\":%lld,\"sys_us\":%lld,\"max_rss_kb\":%ld},",
       (long long)rep->ru.ru_utime.tv_sec * 1000000 + rep->ru.ru_utime.tv_usec,
       (long long)rep->ru.ru_stime.tv_sec * 1000000 + rep->ru.ru_stime.tv_usec, rep->ru.ru_maxrss);
  if (rep->failed)
    {
      bput(&b, "\"error\":{\"step\":");
      bstr(&b, rep->fail_step);
      bput(&b, ",\"errno\":%d,\"strerror\":", rep->fail_errno);
      bstr(&b, strerror(rep->fail_errno));
      bput(&b, ",\"detail\":");
      bstr(&b, rep->fail_detail);
      bput(&b, "},");
    }
  else if (!rep->have_status && !timed_out && !interrupted)
    {
      bput(&b, "\"error\":{\"step\":\"init\",\"errno\":0,\"strerror\":\"\",\"detail\":");
      if (WIFSIGNALED(init_status))
        bput(&b, "\"init died from signal %d\"},", WTERMSIG(init_status));
      else
        bput(&b, "\"init exited with %d\"},", WEXITSTATUS(init_status));
    }
  else
    bput(&b, "\"error\":null,");
  bput(&b, "\"cgroup\":{\"path\":");
  if (cgroup_path[0])
    {
      bstr(&b, cgroup_path);
      bput(&b, ",\"oom_kills\":%ld}", cgroup_oom_kills());
    }
  else
    bput(&b, "null,\"oom_kills\":0}");
  bput(&b, ",\"steps\":[");
  for (i = 0; i < rep->nsteps; i++)
    {
      bput(&b, "%s{\"step\":", i ? "," : "");
      bstr(&b, rep->steps[i].name);
      bput(&b, ",\"ok\":%s,\"us\":%lld,\"detail\":", rep->steps[i].ok ? "true" : "false",
           (long long)(rep->steps[i].at_ns / 1000));
      bstr(&b, rep->steps[i].detail);
      bput(&b, "}");
    }
  bput(&b, "]}\n");
  write_all(s->status_fd, b.p, b.len);
  free(b.p);
}

int
main(int argc, char **argv)
{
  struct spec s;
  sigset_t mask;
  pid_t init;
  int64_t t0 = t_start = now_ns(), deadline = 0, t_end;
  int timed_out = 0, interrupted = 0, killed = 0, init_status = 0, sigfd;
  int reported = 0, init_reaped = 0;
  size_t k;

  if (argc == 2 && strcmp(argv[1], "--version") == 0)
    {
      printf("sbx-launch %s proto %d\n", SBX_VERSION, SBX_PROTO);
      return 0;
    }
  if (argc == 3 && strcmp(argv[1], "--spec-fd") == 0)
    read_spec_fd(&argc, &argv);
  parse_spec(&s, argc, argv);
  read_seccomp(&s);
  close_inherited_fds(&s);

  rep = mmap(NULL, sizeof *rep, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (rep == MAP_FAILED)
    die_with_error("mmap");
  outer_uid = (long)getuid();
  outer_gid = (long)getgid();

  /* Signals the launcher acts on are read from a signalfd:
   * SIGCHLD ends the wait, SIGTERM/SIGINT/SIGHUP kill the sandbox. */
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
  sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
  if (sigfd < 0)
    die_with_error("signalfd");
  if (pipe2(done_pipe, O_CLOEXEC) < 0)
    die_with_error("pipe2");

  if (s.map_uid >= 0)
    {
      if (outer_uid != 0)
        die("--map-uid is for host root callers (this is uid %ld)", outer_uid);
      if (pipe2(maps_pipe, O_CLOEXEC) < 0)
        die_with_error("pipe2");
      prepare_trees(&s);
    }
  step_cgroup(&s);
  if (s.timeout_ms > 0)
    deadline = t0 + s.timeout_ms * 1000000LL;

  init = clone_init(&s);
  if (init < 0)
    {
      rep->failed = 1;
      rep->fail_errno = errno;
      snprintf(rep->fail_step, sizeof rep->fail_step, "%s",
               (s.ns_flags & CLONE_NEWUSER) ? "userns" : "clone");
      snprintf(rep->fail_detail, sizeof rep->fail_detail, "clone3 with namespace flags 0x%lx",
               s.ns_flags);
      write_status(&s, t0, now_ns(), 0, 0, 0);
      if (cgroup_path[0])
        rmdir(cgroup_path);
      return EXIT_SETUP_FAILED;
    }
  if (init == 0)
    {
      /* Steps decided before the clone are recorded from init, so that the
       * report lists them in order. */
      for (k = 0; k < sizeof ns_names / sizeof ns_names[0]; k++)
        if (ns_names[k].clone_flag != CLONE_NEWUSER && ns_names[k].clone_flag != CLONE_NEWNS)
          record(ns_names[k].step, (s.ns_flags & ns_names[k].clone_flag) != 0, "%s",
                 (s.ns_flags & ns_names[k].clone_flag) ? "new" : "host");
      if (cgroup_path[0])
        record("cgroup", 1, "%s", cgroup_path);
      run_init(&s);
    }
  close(done_pipe[1]);
  if (s.map_uid >= 0)
    {
      /* init waits for its maps; without them it fails its userns step. */
      if (write_init_maps(&s, init) < 0)
        kill(init, SIGKILL);
      for (int i = 0; i < s.nops; i++)
        if (s.ops[i].tree_fd >= 0)
          close(s.ops[i].tree_fd);
    }

  /* Wait for init's "done" (or its death: EOF), a signal, or the deadline. */
  for (;;)
    {
      struct pollfd pfd[2] = { { sigfd, POLLIN, 0 }, { done_pipe[0], POLLIN, 0 } };
      struct signalfd_siginfo si;
      int timeout = -1, n;
      if (deadline && !killed)
        {
          int64_t left = deadline - now_ns();
          if (left <= 0)
            {
              timed_out = killed = 1;
              /* Killing pid 1 takes the whole pid namespace down, double-forked
               * and setsid'd children included. */
              kill(init, SIGKILL);
              continue;
            }
          timeout = (int)((left + 999999) / 1000000);
        }
      n = poll(pfd, done_pipe[0] >= 0 ? 2 : 1, timeout);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        die_with_error("poll");
      if (pfd[1].revents)
        {
          char c;
          if (read(done_pipe[0], &c, 1) == 1 && rep->have_status && !timed_out && !interrupted)
            {
              /* Everything in the sandbox is dead: report now, reap init after. */
              reported = 1;
              break;
            }
          close(done_pipe[0]);
          done_pipe[0] = -1;
        }
      if (pfd[0].revents && read(sigfd, &si, sizeof si) == (ssize_t)sizeof si)
        {
          if (si.ssi_signo == SIGCHLD)
            {
              if (waitpid(init, &init_status, WNOHANG) == init)
                {
                  init_reaped = 1;
                  break;
                }
              continue;
            }
          interrupted = killed = 1;
          kill(init, SIGKILL);
        }
    }
  t_end = now_ns();
  if (cgroup_path[0] && !init_reaped)
    {
      /* The cgroup can only be removed, and its counters are only final, once
       * init is gone. */
      while (waitpid(init, &init_status, 0) < 0 && errno == EINTR)
        ;
      init_reaped = 1;
    }
  write_status(&s, t0, t_end, timed_out, interrupted, init_status);
  close(s.status_fd);
  if (reported)
    {
      /* Let the caller go on while the kernel tears the namespaces down. */
      close(1);
      close(2);
    }
  if (!init_reaped)
    while (waitpid(init, &init_status, 0) < 0 && errno == EINTR)
      ;
  if (cgroup_path[0] && rmdir(cgroup_path) < 0 && errno == EBUSY)
    {
      /* Processes of a killed pid namespace can take a moment to be reaped. */
      for (int tries = 0; tries < 50 && rmdir(cgroup_path) < 0 && errno == EBUSY; tries++)
        usleep(2000);
    }
  if (rep->failed)
    return EXIT_SETUP_FAILED;
  if (rep->have_status)
    return WIFEXITED(rep->wstatus) ? WEXITSTATUS(rep->wstatus) : 128 + WTERMSIG(rep->wstatus);
  return 128 + SIGKILL;
}
