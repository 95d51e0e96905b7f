/* sbx-launch: what the launcher's parts share. One file per concern, as
 * bubblewrap splits its own: util (die helpers, small I/O), report (the
 * shared report page and the JSON status), spec (argv -> struct spec), ids
 * (user namespace maps), mount (the new root), net (lo, hostname), command
 * (the command process's own steps), cgroup, relay (the command's stdout and
 * stderr into fd 1 and 2, counted), log (the raw log, capped), serve (--serve: a resident spawner),
 * launch (init, supervise, main), walk (--walk: the work tree's fingerprint and control entries,
 * with sha256), forward (--forward-unix: loopback to a unix socket, for --allow-host). */
#ifndef SBX_LAUNCH_H
#define SBX_LAUNCH_H
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
#include <pthread.h>
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
#define SBX_PROTO 9

#define PREFIX "sbx-launch: "
#define MAX_OPS 1024
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


struct step
{
  char name[32];
  int ok;
  int64_t at_ns; /* since the launcher started: where setup time goes */
  char detail[400];
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
  OP_PROTECT,
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
  long long max_log; /* --max-log: bytes a log file may hold, 0: no cap */
  const char *cgroup;
  struct cgroup_set cgroup_sets[MAX_CGROUP_SETS];
  int ncgroup_sets;
  const char *cgroup_reason;
  const char *forward_path; /* --forward-unix PATH:PORT: the unix socket inside the new root */
  long forward_port;
  char **argv;
  struct sock_filter *bpf;
  unsigned short bpf_len;
};

/* ------------------------------------------------------------ util.c */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void die_with_error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
int64_t now_ns(void);
int write_all(int fd, const char *buf, size_t len);
ssize_t read_from_start(int fd, char *buf, size_t cap);
int write_file(const char *path, const char *content);
int parse_long(const char *s, long min, long max, long *out);
void close_fds_range(unsigned int first, unsigned int last);
void xpath(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void join(char *out, size_t n, const char *root, const char *path);

/* ---------------------------------------------------------- report.c */
extern struct report *rep;
extern int64_t t_start;
void record(const char *name, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fail_step(const char *step, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void write_status(const struct spec *s, int64_t t0, int64_t t_end, int timed_out, int interrupted,
                  int init_status);

/* ------------------------------------------------------------ spec.c */
struct ns_name
{
  const char *flag;
  const char *step;
  unsigned long clone_flag;
};
extern const struct ns_name ns_names[];
extern const size_t n_ns_names;
void parse_spec(struct spec *s, int argc, char **argv);
void read_spec_fd(int *argc, char ***argv);
void close_inherited_fds(const struct spec *s);
void read_seccomp(struct spec *s);

/* ------------------------------------------------------------- ids.c */
extern long outer_uid, outer_gid;
extern int maps_pipe[2];
void step_mapped_ids(const struct spec *s);
int write_init_maps(const struct spec *s, pid_t init);
void prepare_trees(struct spec *s);
void idmap_keep(long map_uid, long map_gid);
int idmap_kept_fd(void);
void idmap_drop(void);
void step_id_maps(const struct spec *s);

/* ----------------------------------------------------------- mount.c */
int set_mount_attrs(const char *path, unsigned long long attrs, int recursive);
void step_root(const struct spec *s);

/* ------------------------------------------------------------- net.c */
void step_hostname(const struct spec *s);
void step_loopback(const struct spec *s);
int lo_up(void);

/* --------------------------------------------------------- forward.c */
void step_forward(const struct spec *s);

/* ------------------------------------------------------------- log.c */
/* The smallest --max-log: room for a head, a ring and the marker line. */
#define MIN_MAX_LOG 4096
enum sink_mode
{
  SINK_PLAIN, /* no cap (or not a file): written in order as it comes */
  SINK_RING,  /* capped: the head, then the last bytes in a ring in the file */
  SINK_HEAD,  /* capped, on a descriptor the ring cannot use: the first bytes only */
};
struct sink
{
  int fd;
  enum sink_mode mode;
  long long base;      /* the file offset the log starts at */
  long long cap, head; /* --max-log, and the part of it kept from the start */
  long long seen;      /* bytes handed to the sink */
  long long written;   /* of those, the bytes written (ring: also those overwritten since) */
  long long dropped;   /* cut out by the cap, the marker's span included (sink_finish) */
  int err;             /* errno of the first failed write */
  int stopped;         /* nothing more is written (after any error but EAGAIN) */
};
void sinks_open(const struct spec *s);
void sink_write(struct sink *k, const char *buf, size_t n);
void sinks_finish(void);
void sinks_total(long long *cap, long long *dropped, long long *unwritten, int *err);

/* ----------------------------------------------------------- relay.c */
struct relay
{
  int rd, wr; /* the pipe: the launcher reads, the sandbox writes */
  long long bytes;
  struct sink *sink; /* what writes it into the launcher's fd 1 or 2 (log.c) */
};
extern struct relay relays[2];
extern int relays_merged; /* one pipe is the command's fd 1 and 2 (relays[1] unused) */
void relay_open(void);
void relay_into_stdio(void);
void relay_close_writers(void);
int relay_pump(struct relay *r);
void relay_drain(void);

/* ----------------------------------------------------------- serve.c */
#define MAX_ARGS_SERVE (2 * MAX_OPS + 2 * MAX_ENV + 256)
int serve(void);
int launcher_main(int argc, char **argv);

/* ------------------------------------------------------ walk.c, sha256.c */
int walk_main(int argc, char **argv);
struct sha256
{
  uint32_t s[8];
  uint64_t len;
  unsigned char buf[64];
  size_t used;
};
void sha256_init(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t n);
void sha256_hex(struct sha256 *h, char out[65]);
/* Set in a child of --serve: its init may be left for the server to reap. */
extern int init_reaped_by_caller;

/* --------------------------------------------------------- command.c */
void run_command(const struct spec *s, int go_fd) __attribute__((noreturn));

/* ---------------------------------------------------------- cgroup.c */
extern int cgroup_fd;
extern char cgroup_path[PATH_MAX];
void step_cgroup(const struct spec *s);
long cgroup_oom_kills(void);

#endif
