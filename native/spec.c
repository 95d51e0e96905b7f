/* sbx-launch: the spec, from argv or a pipe, into struct spec; every bad
 * combination is rejected here, before anything is done. */
#define _GNU_SOURCE
#include "spec.h"
#include <sys/un.h>
#include <sched.h>

static const struct
{
  const char *name;
  int resource;
} rlimit_names[] = {
  { "CPU", RLIMIT_CPU },           { "NOFILE", RLIMIT_NOFILE }, { "FSIZE", RLIMIT_FSIZE },
  { "NPROC", RLIMIT_NPROC },       { "CORE", RLIMIT_CORE },     { "AS", RLIMIT_AS },
  { "DATA", RLIMIT_DATA },         { "STACK", RLIMIT_STACK },   { "MEMLOCK", RLIMIT_MEMLOCK },
  { "MSGQUEUE", RLIMIT_MSGQUEUE },
};

const struct ns_name ns_names[] = {
  { "--unshare-user", "userns", CLONE_NEWUSER },       { "--unshare-pid", "pidns", CLONE_NEWPID },
  { "--unshare-mount", "mntns", CLONE_NEWNS },         { "--unshare-net", "netns", CLONE_NEWNET },
  { "--unshare-uts", "utsns", CLONE_NEWUTS },          { "--unshare-ipc", "ipcns", CLONE_NEWIPC },
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

/* ------------------------------------------------------------ options
 * One handler per kind of option; the table below names every option, the
 * arguments it takes and what it sets. A handler is given the option's own
 * arguments (arg[0], arg[1]), already counted. */

struct spec_option;
typedef void opt_fn(struct spec *s, const struct spec_option *o, char **arg);

struct spec_option
{
  const char *name;
  int nargs;
  opt_fn *apply;
  size_t field;        /* the field it sets: offsetof(struct spec, ...); --size, --nr-inodes: of struct op */
  unsigned long value; /* the op kind (opt_op) */
};

#define FIELD(f) offsetof(struct spec, f)
#define AT(s, o, type) ((type *)((char *)(s) + (o)->field))

/* The op just before, for the options that qualify it (--idmap, --size). */
static struct op *
last_op(struct spec *s)
{
  return s->nops > 0 ? &s->ops[s->nops - 1] : NULL;
}

static void
opt_flag(struct spec *s, const struct spec_option *o, char **arg)
{
  (void)arg;
  *AT(s, o, int) = 1;
}

static void
opt_str(struct spec *s, const struct spec_option *o, char **arg)
{
  *AT(s, o, const char *) = arg[0];
}

static void
opt_fd(struct spec *s, const struct spec_option *o, char **arg)
{
  *AT(s, o, int) = parse_fd(arg[0]);
}

/* --ro-bind SRC DST, --symlink TARGET DST (two arguments); --tmpfs DST and the like (one). */
static void
opt_op(struct spec *s, const struct spec_option *o, char **arg)
{
  add_op(s, (enum op_kind)o->value, o->nargs == 2 ? arg[0] : NULL, arg[o->nargs - 1]);
}

static void
opt_id(struct spec *s, const struct spec_option *o, char **arg)
{
  if (parse_long(arg[0], 0, 65533, AT(s, o, long)) < 0)
    die("%s: bad id %s", o->name, arg[0]);
}

static void
opt_host_id(struct spec *s, const struct spec_option *o, char **arg)
{
  if (parse_long(arg[0], 1, 4294967294L, AT(s, o, long)) < 0)
    die("%s: bad host id %s", o->name, arg[0]);
}

/* The bind just before is shown id-mapped (needs --map-uid). */
static void
opt_idmap(struct spec *s, const struct spec_option *o, char **arg)
{
  struct op *last = last_op(s);
  (void)o, (void)arg;
  if (last == NULL || (last->kind != OP_BIND && last->kind != OP_RO_BIND))
    die("--idmap must follow --bind or --ro-bind");
  last->idmap = 1;
}

/* Limits of the tmpfs made by the op just before (--tmpfs; --dev: its /dev/shm). */
static void
opt_tmpfs_limit(struct spec *s, const struct spec_option *o, char **arg)
{
  struct op *last = last_op(s);
  long v;
  if (last == NULL || (last->kind != OP_TMPFS && last->kind != OP_DEV))
    die("%s must follow --tmpfs or --dev", o->name);
  if (parse_long(arg[0], 1, LONG_MAX, &v) < 0)
    die("bad %s: %s", o->name, arg[0]);
  *(long *)((char *)last + o->field) = v;
}

static void
opt_setenv(struct spec *s, const struct spec_option *o, char **arg)
{
  size_t n;
  char *kv;
  (void)o;
  if (s->nenv >= MAX_ENV)
    die("too many environment variables (max %d)", MAX_ENV);
  if (arg[0][0] == '\0' || strchr(arg[0], '=') != NULL)
    die("bad environment variable name: %s", arg[0]);
  n = strlen(arg[0]) + strlen(arg[1]) + 2;
  kv = xmalloc(n);
  snprintf(kv, n, "%s=%s", arg[0], arg[1]);
  s->env[s->nenv++] = kv;
  s->env_set = 1;
}

static void
opt_rlimit(struct spec *s, const struct spec_option *o, char **arg)
{
  struct rlim *r;
  int found = -1;
  long v;
  (void)o;
  if (s->nrlimits >= MAX_RLIMITS)
    die("too many rlimits");
  for (size_t k = 0; k < sizeof rlimit_names / sizeof rlimit_names[0]; k++)
    if (strcmp(arg[0], rlimit_names[k].name) == 0)
      found = (int)k;
  if (found < 0)
    die("unknown rlimit: %s", arg[0]);
  r = &s->rlimits[s->nrlimits++];
  r->name = rlimit_names[found].name;
  r->resource = rlimit_names[found].resource;
  if (strcmp(arg[1], "inf") == 0)
    r->value = RLIM_INFINITY;
  else if (parse_long(arg[1], 0, LONG_MAX, &v) == 0)
    r->value = (rlim_t)v;
  else
    die("bad rlimit value: %s", arg[1]);
}

static void
opt_pid_max(struct spec *s, const struct spec_option *o, char **arg)
{
  (void)o;
  if (parse_long(arg[0], 301, 4194304, &s->pid_max) < 0)
    die("bad --pid-max: %s (301..4194304)", arg[0]);
}

static void
opt_timeout(struct spec *s, const struct spec_option *o, char **arg)
{
  (void)o;
  if (parse_long(arg[0], 1, LONG_MAX / 1000000, &s->timeout_ms) < 0)
    die("bad --timeout-ms: %s", arg[0]);
}

static void
opt_max_log(struct spec *s, const struct spec_option *o, char **arg)
{
  long v;
  (void)o;
  if (parse_long(arg[0], MIN_MAX_LOG, LONG_MAX, &v) < 0)
    die("bad --max-log: %s (bytes, at least %d)", arg[0], MIN_MAX_LOG);
  s->max_log = v;
}

static void
opt_cgroup_set(struct spec *s, const struct spec_option *o, char **arg)
{
  (void)o;
  if (s->ncgroup_sets >= MAX_CGROUP_SETS)
    die("too many --cgroup-set");
  if (strchr(arg[0], '/') != NULL)
    die("bad cgroup file: %s", arg[0]);
  s->cgroup_sets[s->ncgroup_sets].file = arg[0];
  s->cgroup_sets[s->ncgroup_sets].value = arg[1];
  s->ncgroup_sets++;
}

/* PATH:PORT, the port after the last colon. */
static void
opt_forward(struct spec *s, const struct spec_option *o, char **arg)
{
  char *colon = strrchr(arg[0], ':');
  (void)o;
  if (colon == NULL || arg[0][0] != '/' || (size_t)(colon - arg[0]) >= sizeof(((struct sockaddr_un *)0)->sun_path) ||
      parse_long(colon + 1, 1, 65535, &s->forward_port) < 0)
    die("bad --forward-unix: %s (an absolute socket path inside the sandbox, a colon, a port)", arg[0]);
  *colon = '\0';
  s->forward_path = arg[0];
}

/* --landlock-write DIR, --landlock-write-file DIR */
static void
opt_landlock_write(struct spec *s, const struct spec_option *o, char **arg)
{
  int file = o->field == FIELD(landlock_write_file);
  int *n = file ? &s->landlock_nwrite_file : &s->landlock_nwrite;
  if (*n >= MAX_LANDLOCK)
    die("too many %s (max %d)", o->name, MAX_LANDLOCK);
  if (arg[0][0] != '/')
    die("%s must be an absolute path: %s", o->name, arg[0]);
  AT(s, o, const char *)[(*n)++] = arg[0];
}

static void
opt_landlock_connect(struct spec *s, const struct spec_option *o, char **arg)
{
  (void)o;
  if (s->landlock_nports >= MAX_LANDLOCK)
    die("too many --landlock-connect (max %d)", MAX_LANDLOCK);
  if (parse_long(arg[0], 1, 65535, &s->landlock_ports[s->landlock_nports++]) < 0)
    die("bad --landlock-connect: %s (a TCP port)", arg[0]);
}

/* Every option but the --unshare-* ones (ns_names) and "--". */
static const struct spec_option options[] = {
  { "--status-fd", 1, opt_fd, FIELD(status_fd), 0 },
  { "--seccomp-fd", 1, opt_fd, FIELD(seccomp_fd), 0 },
  { "--uid", 1, opt_id, FIELD(uid), 0 },
  { "--gid", 1, opt_id, FIELD(gid), 0 },
  { "--map-uid", 1, opt_host_id, FIELD(map_uid), 0 },
  { "--map-gid", 1, opt_host_id, FIELD(map_gid), 0 },
  { "--idmap", 0, opt_idmap, 0, 0 },
  { "--hostname", 1, opt_str, FIELD(hostname), 0 },
  { "--ro-bind", 2, opt_op, 0, OP_RO_BIND },
  { "--bind", 2, opt_op, 0, OP_BIND },
  { "--symlink", 2, opt_op, 0, OP_SYMLINK },
  { "--tmpfs", 1, opt_op, 0, OP_TMPFS },
  { "--dev", 1, opt_op, 0, OP_DEV },
  { "--proc", 1, opt_op, 0, OP_PROC },
  { "--sysfs", 1, opt_op, 0, OP_SYSFS },
  { "--remount-ro", 1, opt_op, 0, OP_REMOUNT_RO },
  { "--hide", 1, opt_op, 0, OP_HIDE },
  { "--hide-empty", 1, opt_op, 0, OP_HIDE_EMPTY },
  { "--size", 1, opt_tmpfs_limit, offsetof(struct op, size), 0 },
  { "--nr-inodes", 1, opt_tmpfs_limit, offsetof(struct op, inodes), 0 },
  { "--protect", 1, opt_op, 0, OP_PROTECT },
  { "--dir", 1, opt_op, 0, OP_DIR },
  { "--rebind", 2, opt_op, 0, OP_REBIND },
  { "--chdir", 1, opt_str, FIELD(chdir_path), 0 },
  { "--setenv", 2, opt_setenv, 0, 0 },
  { "--clearenv", 0, opt_flag, FIELD(env_set), 0 },
  { "--rlimit", 2, opt_rlimit, 0, 0 },
  { "--no-aslr", 0, opt_flag, FIELD(no_aslr), 0 },
  { "--no-new-privs", 0, opt_flag, FIELD(no_new_privs), 0 },
  { "--setsid", 0, opt_flag, FIELD(setsid), 0 },
  { "--loopback", 0, opt_flag, FIELD(loopback), 0 },
  { "--ro-root", 0, opt_flag, FIELD(ro_root), 0 },
  { "--drop-caps", 0, opt_flag, FIELD(drop_caps), 0 },
  { "--new-session-keyring", 0, opt_flag, FIELD(new_keyring), 0 },
  { "--pid-max", 1, opt_pid_max, 0, 0 },
  { "--timeout-ms", 1, opt_timeout, 0, 0 },
  { "--max-log", 1, opt_max_log, 0, 0 },
  { "--pace", 1, opt_str, FIELD(pace), 0 },
  { "--cgroup", 1, opt_str, FIELD(cgroup), 0 },
  { "--cgroup-set", 2, opt_cgroup_set, 0, 0 },
  { "--forward-unix", 1, opt_forward, 0, 0 },
  { "--landlock", 0, opt_flag, FIELD(landlock), 0 },
  { "--landlock-scope", 0, opt_flag, FIELD(landlock_scope), 0 },
  { "--landlock-write", 1, opt_landlock_write, FIELD(landlock_write), 0 },
  { "--landlock-write-file", 1, opt_landlock_write, FIELD(landlock_write_file), 0 },
  { "--landlock-connect", 1, opt_landlock_connect, 0, 0 },
  { "--cgroup-skip", 1, opt_str, FIELD(cgroup_reason), 0 },
};

/* Bad combinations, rejected before acting on anything: the first that
 * holds is the message. */
static void
check_spec(const struct spec *s)
{
  unsigned long ns = s->ns_flags;
  int sysfs = 0, idmap = 0;
  for (int i = 0; i < s->nops; i++)
    {
      sysfs |= s->ops[i].kind == OP_SYSFS;
      idmap |= s->ops[i].idmap;
    }
  const struct
  {
    int bad;
    const char *why;
  } rules[] = {
    { s->status_fd < 0, "--status-fd is required" },
    { s->nops > 0 && !(ns & CLONE_NEWNS), "mount operations need --unshare-mount" },
    { !(ns & CLONE_NEWUSER), "--unshare-user is required (sbx-launch never uses host privileges)" },
    /* init must be pid 1 of its own pid namespace: that is what makes its
     * final kill(-1) reach the sandbox and nothing else. */
    { !(ns & CLONE_NEWPID), "--unshare-pid is required (init must be pid 1 of the sandbox)" },
    { sysfs && !(ns & CLONE_NEWNET), "--sysfs needs --unshare-net (use --ro-bind /sys /sys with the host network)" },
    { s->ro_root && !(ns & CLONE_NEWNS), "--ro-root needs --unshare-mount" },
    { s->hostname && !(ns & CLONE_NEWUTS), "--hostname needs --unshare-uts" },
    { s->loopback && !(ns & CLONE_NEWNET), "--loopback needs --unshare-net" },
    /* The forwarder listens on the sandbox's own loopback, never the host's. */
    { s->forward_path && !(ns & CLONE_NEWNET), "--forward-unix needs --unshare-net" },
    { (s->landlock_scope || s->landlock_nwrite || s->landlock_nwrite_file || s->landlock_nports) && !s->landlock,
      "--landlock-write, --landlock-write-file, --landlock-connect and --landlock-scope need --landlock" },
    /* landlock_restrict_self(2) of a process without CAP_SYS_ADMIN needs it; the command drops its caps. */
    { s->landlock && !s->no_new_privs, "--landlock needs --no-new-privs" },
    { s->ncgroup_sets > 0 && s->cgroup == NULL, "--cgroup-set needs --cgroup" },
    { (s->map_uid >= 0) != (s->map_gid >= 0), "--map-uid and --map-gid go together" },
    { s->map_uid >= 0 && (s->uid < 0 || s->gid < 0), "--map-uid needs --uid and --gid" },
    { idmap && s->map_uid < 0, "--idmap needs --map-uid" },
  };
  if (s->argv == NULL || s->argv[0] == NULL)
    usage();
  for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
    if (rules[k].bad)
      die("%s", rules[k].why);
}

static const struct spec_option *
find_option(const char *name)
{
  for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
    if (strcmp(name, options[k].name) == 0)
      return &options[k];
  return NULL;
}

void
parse_spec(struct spec *s, int argc, char **argv)
{
  /* Everything but ops[] (48 KiB: twelve pages a launcher would fault in
   * and zero per run); add_op sets every field of each op it counts. */
  memset(s, 0, offsetof(struct spec, ops));
  memset(&s->nops, 0, sizeof *s - offsetof(struct spec, nops));
  s->status_fd = -1;
  s->seccomp_fd = -1;
  s->uid = -1;
  s->gid = -1;
  s->map_uid = -1;
  s->map_gid = -1;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      const struct spec_option *o;
      int matched = 0;
      if (strcmp(a, "--") == 0)
        {
          s->argv = &argv[i + 1];
          break;
        }
      for (size_t k = 0; k < n_ns_names; k++)
        if (strcmp(a, ns_names[k].flag) == 0)
          {
            s->ns_flags |= ns_names[k].clone_flag;
            matched = 1;
          }
      if (matched)
        continue;
      o = find_option(a);
      if (o == NULL)
        die("unknown option: %s", a);
      if (i + o->nargs >= argc)
        die("%s needs %d argument(s)", a, o->nargs);
      o->apply(s, o, &argv[i + 1]);
      i += o->nargs;
    }
  check_spec(s);
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
  buf = xmalloc(MAX_SPEC_BYTES + 1);
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
  out = xcalloc(n + 2, sizeof *out);
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
close_inherited_fds(const struct spec *s, int also_keep)
{
  /* Every descriptor above 2 but the report's and also_keep (-1: none): in a
   * launcher forked by --serve, the id-mapping namespace the server kept for it (ids.c). */
  int keep[2] = { s->status_fd, also_keep };
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
  buf = xmalloc(cap);
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
