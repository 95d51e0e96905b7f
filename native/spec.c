/* sbx-launch: the spec, from argv or a pipe, into struct spec; every bad
 * combination is rejected here, before anything is done. */
#define _GNU_SOURCE
#include "sbx.h"
#include <sys/un.h>

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

const struct ns_name ns_names[] = {
  { "--unshare-user", "userns", CLONE_NEWUSER }, { "--unshare-pid", "pidns", CLONE_NEWPID },
  { "--unshare-mount", "mntns", CLONE_NEWNS },   { "--unshare-net", "netns", CLONE_NEWNET },
  { "--unshare-uts", "utsns", CLONE_NEWUTS },    { "--unshare-ipc", "ipcns", CLONE_NEWIPC },
  { "--unshare-cgroup", "cgroupns", CLONE_NEWCGROUP },
};
const size_t n_ns_names = sizeof ns_names / sizeof ns_names[0];

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

void
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
      else if (strcmp(a, "--protect") == 0)
        NEED(1), add_op(s, OP_PROTECT, NULL, argv[++i]);
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
      else if (strcmp(a, "--max-log") == 0)
        {
          NEED(1);
          if (parse_long(argv[++i], MIN_MAX_LOG, LONG_MAX, &v) < 0)
            die("bad --max-log: %s (bytes, at least %d)", argv[i], MIN_MAX_LOG);
          s->max_log = v;
        }
      else if (strcmp(a, "--pace") == 0)
        NEED(1), s->pace = argv[++i];
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
      else if (strcmp(a, "--forward-unix") == 0)
        {
          /* PATH:PORT, the port after the last colon. */
          char *arg, *colon;
          NEED(1);
          arg = argv[++i];
          colon = strrchr(arg, ':');
          if (colon == NULL || arg[0] != '/' || (size_t)(colon - arg) >= sizeof(((struct sockaddr_un *)0)->sun_path)
              || parse_long(colon + 1, 1, 65535, &s->forward_port) < 0)
            die("bad --forward-unix: %s (an absolute socket path inside the sandbox, a colon, a port)", arg);
          *colon = '\0';
          s->forward_path = arg;
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
  /* The forwarder listens on the sandbox's own loopback, never the host's. */
  if (s->forward_path && !(s->ns_flags & CLONE_NEWNET))
    die("--forward-unix needs --unshare-net");
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
void
read_spec_fd(int *argc, char ***argv)
{
  long v;
  char *buf, **out;
  size_t len, n = 0, i, k;
  ssize_t r;
  int fd;
  if (parse_long((*argv)[2], 0, INT_MAX, &v) < 0)
    die("bad --spec-fd: %s", (*argv)[2]);
  fd = (int)v;
  buf = malloc(MAX_SPEC_BYTES + 1);
  if (buf == NULL)
    die("out of memory");
  r = read_from_start(fd, buf, MAX_SPEC_BYTES);
  if (r < 0)
    die_with_error("reading the spec from fd %d", fd);
  if (r == MAX_SPEC_BYTES)
    die("spec too long (max %d bytes)", MAX_SPEC_BYTES);
  len = (size_t)r;
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
void
close_inherited_fds(const struct spec *s)
{
  /* Every descriptor above 2 but the report's and, in a launcher forked by
   * --serve, the id-mapping namespace the server kept for it (ids.c). */
  int keep[2] = { s->status_fd, idmap_kept_fd() };
  unsigned int from = 3;
  if (keep[1] >= 0 && (keep[0] < 0 || keep[1] < keep[0]))
    {
      int t = keep[0];
      keep[0] = keep[1];
      keep[1] = t;
    }
  for (int i = 0; i < 2; i++)
    {
      if (keep[i] < (int)from)
        continue;
      if ((unsigned int)keep[i] > from)
        close_fds_range(from, (unsigned int)keep[i] - 1);
      from = (unsigned int)keep[i] + 1;
    }
  close_fds_range(from, ~0U);
}

/* Reads the classic BPF program (struct sock_filter[]) until EOF, like
 * bwrap --seccomp FD. It is installed later, in the command process. */
void
read_seccomp(struct spec *s)
{
  size_t cap = MAX_BPF_INSNS * sizeof(struct sock_filter) + 1;
  size_t len;
  ssize_t r;
  char *buf;
  if (s->seccomp_fd < 0)
    return;
  buf = malloc(cap);
  if (buf == NULL)
    die("out of memory");
  r = read_from_start(s->seccomp_fd, buf, cap);
  if (r < 0)
    die_with_error("reading the seccomp program");
  if ((size_t)r == cap)
    die("seccomp program too long (max %d instructions)", MAX_BPF_INSNS);
  len = (size_t)r;
  close(s->seccomp_fd);
  if (len == 0 || len % sizeof(struct sock_filter) != 0)
    die("seccomp program has a bad length: %zu bytes", len);
  s->bpf = (struct sock_filter *)buf;
  s->bpf_len = (unsigned short)(len / sizeof(struct sock_filter));
}
