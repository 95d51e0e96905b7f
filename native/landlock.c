/* sbx-launch: --landlock, a second layer under the mounts (issue 35 part 2).
 *
 * The command process, once init's new root is in place, restricts itself
 * (and so everything it execs) with a Landlock ruleset: it may create, write,
 * remove and rename only beneath the --landlock-write directories, write
 * existing files (no creation) beneath the --landlock-write-file ones (/dev,
 * /proc), and, on ABI >= 4 with --landlock-connect, connect(2) over TCP only
 * to those ports. Reads and execution are not handled: the mounts decide
 * them. On ABI >= 6, --landlock-scope also scopes abstract unix sockets and
 * signals to the sandbox's own domain.
 *
 * The step never fails the run: a kernel without Landlock (or one that
 * refuses the ruleset) leaves the mounts as the only layer, and the report
 * says so ("landlock" ok=false). The paths are the spec's; nothing is decided
 * here. */
#define _GNU_SOURCE
#include "landlock.h"
#include "report.h"

/* The kernel's uapi, spelled out: the build host's headers may predate the
 * ABI the running kernel has (this one's stop at ABI 2). */
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2
#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)           /* ABI 2 */
#define LL_FS_TRUNCATE (1ULL << 14)        /* ABI 3 */
#define LL_NET_CONNECT_TCP (1ULL << 1)     /* ABI 4 */
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)        /* ABI 6 */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

struct ll_ruleset_attr
{
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct ll_path_beneath
{
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

struct ll_net_port
{
  uint64_t allowed_access;
  uint64_t port;
};

/* Every right that changes the tree, of those this ABI knows. */
static uint64_t
write_rights(int abi)
{
  uint64_t r = LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_CHAR | LL_FS_MAKE_DIR |
               LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_BLOCK | LL_FS_MAKE_SYM;
  if (abi >= 2)
    r |= LL_FS_REFER;
  if (abi >= 3)
    r |= LL_FS_TRUNCATE;
  return r;
}

/* 0, or the errno of the rule that could not be added. */
static int
add_path(int rfd, const char *path, uint64_t access)
{
  struct ll_path_beneath pb;
  int fd = open(path, O_PATH | O_CLOEXEC), err = 0;
  if (fd < 0)
    return errno;
  pb.allowed_access = access;
  pb.parent_fd = fd;
  if (syscall(SYS_landlock_add_rule, rfd, LL_RULE_PATH_BENEATH, &pb, 0) < 0)
    err = errno;
  close(fd);
  return err;
}

void
step_landlock(const struct spec *s)
{
  struct ll_ruleset_attr attr;
  size_t attr_size;
  uint64_t rights;
  long abi;
  int rfd, i, err, net, scope;
  char ports[128] = "";
  if (!s->landlock)
    return;
  abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
  if (abi < 1)
    {
      record("landlock", 0, "abi=0 the kernel has no Landlock (%s): the mounts are the only layer",
             strerror(abi < 0 ? errno : ENOSYS));
      return;
    }
  rights = write_rights((int)abi);
  net = abi >= 4 && s->landlock_nports > 0;
  scope = abi >= 6 && s->landlock_scope;
  memset(&attr, 0, sizeof attr);
  attr.handled_access_fs = rights;
  attr.handled_access_net = net ? LL_NET_CONNECT_TCP : 0;
  attr.scoped = scope ? (LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL) : 0;
  /* The struct as long as this ABI knows it: an older kernel refuses fields it has not (E2BIG). */
  attr_size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  rfd = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
  if (rfd < 0)
    {
      record("landlock", 0, "abi=%ld creating the ruleset: %s: the mounts are the only layer", abi, strerror(errno));
      return;
    }
  for (i = 0; i < s->landlock_nwrite; i++)
    if ((err = add_path(rfd, s->landlock_write[i], rights)) != 0)
      record("landlock_rule", 0, "write %s: %s", s->landlock_write[i], strerror(err));
  for (i = 0; i < s->landlock_nwrite_file; i++)
    if ((err = add_path(rfd, s->landlock_write_file[i], rights & (LL_FS_WRITE_FILE | LL_FS_TRUNCATE))) != 0)
      record("landlock_rule", 0, "write_file %s: %s", s->landlock_write_file[i], strerror(err));
  for (i = 0; net && i < s->landlock_nports; i++)
    {
      struct ll_net_port np = { LL_NET_CONNECT_TCP, (uint64_t)s->landlock_ports[i] };
      size_t used = strlen(ports);
      if (syscall(SYS_landlock_add_rule, rfd, LL_RULE_NET_PORT, &np, 0) < 0)
        record("landlock_rule", 0, "connect %ld: %s", s->landlock_ports[i], strerror(errno));
      else
        snprintf(ports + used, sizeof ports - used, "%s%ld", used ? "," : "", s->landlock_ports[i]);
    }
  /* The command holds no_new_privs already (the spec requires it). */
  if (syscall(SYS_landlock_restrict_self, rfd, 0) < 0)
    {
      err = errno;
      close(rfd);
      record("landlock", 0, "abi=%ld restricting the command: %s: the mounts are the only layer", abi, strerror(err));
      return;
    }
  close(rfd);
  /* Parsed by src/launcher/outcome.ts: key=value words. */
  record("landlock", 1, "abi=%ld fs=write connect=%s scoped=%s", abi,
         net                    ? ports :
         s->landlock_nports > 0 ? "unrestricted(abi<4)" :
                                  "unrestricted",
         scope             ? "abstract_unix_socket,signal" :
         s->landlock_scope ? "none(abi<6)" :
                             "none");
}
