/* sbx-launch: the spec, from argv or a pipe, into struct spec (spec.c). */
#ifndef SBX_SPEC_H
#define SBX_SPEC_H
#include "util.h"
#include <linux/filter.h>
#include <sys/resource.h>

#define MAX_OPS 1024
#define MAX_ENV 256
#define MAX_RLIMITS 16
#define MAX_CGROUP_SETS 8
#define MAX_BPF_INSNS 4096
#define MAX_LANDLOCK 64
#define MAX_SPEC_BYTES (1 << 20)
/* The smallest --max-log: room for a head, a ring and the marker line (log.c). */
#define MIN_MAX_LOG 4096

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
  OP_REBIND, /* a: a directory already in the new root, shown again (with all mounts below it) at b */
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
  const char *pace;  /* --pace FILE: where the log's reader says how far it read (pace.c) */
  const char *cgroup;
  struct cgroup_set cgroup_sets[MAX_CGROUP_SETS];
  int ncgroup_sets;
  const char *cgroup_reason;
  const char *forward_path; /* --forward-unix PATH:PORT: the unix socket inside the new root */
  long forward_port;
  int landlock, landlock_scope; /* --landlock, --landlock-scope (landlock.c) */
  const char *landlock_write[MAX_LANDLOCK];
  int landlock_nwrite;
  const char *landlock_write_file[MAX_LANDLOCK];
  int landlock_nwrite_file;
  long landlock_ports[MAX_LANDLOCK];
  int landlock_nports;
  char **argv;
  struct sock_filter *bpf;
  unsigned short bpf_len;
};

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
void close_inherited_fds(const struct spec *s, int also_keep);
void read_seccomp(struct spec *s);

#endif
