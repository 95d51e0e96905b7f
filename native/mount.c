/* sbx-launch: the new root: a tmpfs assembled under /newroot with the host
 * root at /oldroot, every mount point resolved inside it, then pivoted to. */
#define _GNU_SOURCE
#include "mount.h"
#include "net.h"
#include "report.h"
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <poll.h>
#include <pthread.h>

/* What a step of the new root failed at: the step, errno, and its words. The
 * helpers below fill it and return -1 (as bubblewrap's bind_mount returns its
 * result); the step list (step_root) decides, and reports it with fail_step. */
struct mount_fail
{
  const char *step;
  int err;
  char what[sizeof rep->fail_detail];
};

/* Fills f (errno as it is now) and returns -1. */
static int __attribute__((format(printf, 3, 4))) failed(struct mount_fail *f, const char *step, const char *fmt, ...)
{
  va_list ap;
  f->err = errno;
  f->step = step;
  va_start(ap, fmt);
  vsnprintf(f->what, sizeof f->what, fmt, ap);
  va_end(ap);
  return -1;
}

/* snprintf for paths: a path that does not fit fails the step instead of
 * being silently cut short. */
static int __attribute__((format(printf, 4, 5))) xpath(struct mount_fail *f, char *out, size_t n, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start(ap, fmt);
  r = vsnprintf(out, n, fmt, ap);
  va_end(ap);
  if (r < 0 || (size_t)r >= n)
    {
      errno = ENAMETOOLONG;
      return failed(f, "mount", "path too long: %s", out);
    }
  return 0;
}

static int
join(struct mount_fail *f, char *out, size_t n, const char *root, const char *path)
{
  if (snprintf(out, n, "%s%s", root, path) >= (int)n)
    {
      errno = ENAMETOOLONG;
      return failed(f, "mount", "path too long: %s", path);
    }
  return 0;
}

static int mount_setattr_missing;

/* Sets attributes on a mount (and, with recursive, every mount below it).
 * mount_setattr(2) handles locked flags and submounts in one call; older
 * kernels get a remount of the top mount that repeats its current flags,
 * since the kernel refuses to clear locked flags inside a user namespace. */
int
set_mount_attrs(const char *path, unsigned long long attrs, int recursive)
{
  struct mount_attr ma;
  struct statvfs sv;
  unsigned long ms = MS_REMOUNT | MS_BIND;
  if (!mount_setattr_missing)
    {
      memset(&ma, 0, sizeof ma);
      ma.attr_set = attrs;
      if (syscall(SYS_mount_setattr, AT_FDCWD, path, recursive ? AT_RECURSIVE : 0, &ma, sizeof ma) == 0)
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
static int root_fd = -1; /* /newroot, kept open while the ops run (open_in_root) */

static void
close_root_fd(void)
{
  if (root_fd >= 0)
    close(root_fd);
  root_fd = -1;
}

/* The kept descriptor of /newroot, opened on first use. */
static int
root_dir(void)
{
  if (root_fd < 0)
    root_fd = open("/newroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
  return root_fd;
}

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
  for (comp = buf; *comp == '/'; comp++)
    ;
  if (*comp == '\0')
    {
      /* The root itself: a mount may go over it, which the kept descriptor
       * would not see. */
      close_root_fd();
      return open("/newroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
  if ((fd = root_dir()) < 0)
    return -1;
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
          errno = EINVAL;
          goto fail;
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
      if (fd != root_fd)
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
  if (fd != root_fd)
    close(fd);
  errno = e;
  return -1;
}

/* A path naming what fd refers to, for mount(2): the host's /proc magic
 * link, so that nothing between open_in_root and the mount can swap a
 * component for a symlink. Without a usable /proc (never seen on a host
 * that can make user namespaces) the checked path itself. */
static int
fd_target(struct mount_fail *f, char *out, size_t n, int fd, const char *checked)
{
  static int proc_ok = -1;
  if (proc_ok < 0)
    proc_ok = access("/oldroot/proc/self/fd", X_OK) == 0;
  if (proc_ok)
    return xpath(f, out, n, "/oldroot/proc/self/fd/%d", fd);
  return join(f, out, n, "/newroot", checked);
}

/* set_mount_attrs on the mount fd is the root of (an O_PATH descriptor of a
 * mount point, resolved after the mount, so it names the new mount):
 * mount_setattr(2) takes the descriptor itself, with no walk through
 * /proc/self/fd; a kernel without it gets the remount through fd_target. */
static int
set_attrs_fd(struct mount_fail *f, int fd, const char *checked, unsigned long long attrs, int recursive)
{
  char target[PATH_MAX];
  if (!mount_setattr_missing)
    {
      struct mount_attr ma;
      memset(&ma, 0, sizeof ma);
      ma.attr_set = attrs;
      if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &ma, sizeof ma) == 0)
        return 0;
      if (errno != ENOSYS)
        return -1;
      mount_setattr_missing = 1;
    }
  if (fd_target(f, target, sizeof target, fd, checked) < 0)
    return -1;
  return set_mount_attrs(target, attrs, recursive);
}

/* Opens the mount point at PATH (see open_in_root), or fills f with its own
 * words for a symlink on the way and returns -1. */
static int
mount_point(struct mount_fail *f, const char *step, const char *path, enum mp_make make)
{
  int fd = open_in_root(path, make);
  if (fd < 0 && errno == ELOOP)
    return failed(f, step, "%s crosses a symlink inside the sandbox (refused: it could lead out of the new root)",
                  path);
  if (fd < 0)
    return failed(f, step, "creating mount point %s", path);
  return fd;
}

/* Each op_* below builds one entry of the spec's list into the new root: 0,
 * or -1 with f saying what failed (the step list ends the run). A failed op
 * may leave a descriptor open: init ends at once. */
static int
op_bind(const struct op *op, int ro, struct mount_fail *f)
{
  char src[PATH_MAX], target[PATH_MAX];
  struct stat st;
  int fd;
  if (op->tree_fd >= 0)
    {
      if (fstat(op->tree_fd, &st) < 0)
        return failed(f, "bind", "%s", op->a);
      if ((fd = mount_point(f, "bind", op->b, S_ISDIR(st.st_mode) ? MP_DIR : MP_FILE)) < 0)
        return -1;
      if (syscall(SYS_move_mount, op->tree_fd, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
        return failed(f, "bind", "attaching %s on %s", op->a, op->b);
      close(op->tree_fd);
      close(fd);
      return 0; /* read-only, nosuid, nodev since prepare_trees (ids.c), which id-mapped it */
    }
  else
    {
      if (join(f, src, sizeof src, "/oldroot", op->a) < 0)
        return -1;
      if (stat(src, &st) < 0)
        return failed(f, "bind", "%s", op->a);
      if ((fd = mount_point(f, "bind", op->b, S_ISDIR(st.st_mode) ? MP_DIR : MP_FILE)) < 0 ||
          fd_target(f, target, sizeof target, fd, op->b) < 0)
        return -1;
      if (mount(src, target, NULL, MS_BIND | MS_REC, NULL) < 0)
        return failed(f, "bind", "bind-mounting %s on %s", op->a, op->b);
    }
  close(fd);
  /* The flags go on the new mount: resolve again, which crosses into it. */
  if ((fd = mount_point(f, "bind", op->b, MP_EXISTING)) < 0)
    return -1;
  if (set_attrs_fd(f, fd, op->b, (ro ? MOUNT_ATTR_RDONLY : 0) | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 1) < 0)
    return failed(f, "bind", "making %s %s", op->b, ro ? "read-only" : "nosuid");
  close(fd);
  return 0;
}

static int
op_symlink(const struct op *op, struct mount_fail *f)
{
  char parent[PATH_MAX];
  const char *name;
  char *slash;
  int fd;
  if (xpath(f, parent, sizeof parent, "%s", op->b) < 0)
    return -1;
  slash = strrchr(parent, '/');
  name = op->b + (slash - parent) + 1;
  *slash = '\0';
  /* A link at the top (/bin -> usr/bin) goes into the kept root: no mount
   * follows, so the descriptor stays good (open_in_root drops it for "/"). */
  if (parent[0] == '\0' && (fd = root_dir()) < 0)
    return failed(f, "symlink", "opening the new root");
  if (parent[0] != '\0' && (fd = mount_point(f, "symlink", parent, MP_DIR)) < 0)
    return -1;
  if (symlinkat(op->a, fd, name) < 0 && errno != EEXIST)
    return failed(f, "symlink", "%s -> %s", op->b, op->a);
  if (fd != root_fd)
    close(fd);
  return 0;
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

static int
op_tmpfs(const struct op *op, struct mount_fail *f)
{
  char target[PATH_MAX], opts[128];
  int fd = mount_point(f, "tmpfs", op->b, MP_DIR);
  if (fd < 0)
    return -1;
  tmpfs_opts(opts, sizeof opts, "1777", op->size, op->inodes);
  if (fd_target(f, target, sizeof target, fd, op->b) < 0)
    return -1;
  if (mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
    return failed(f, "tmpfs", "mounting a tmpfs on %s", op->b);
  close(fd);
  record("tmpfs", 1, "%s (%s)", op->b, opts);
  return 0;
}

static int
op_dev(const struct op *op, struct mount_fail *f)
{
  static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
  static const char *const links[][2] = {
    { "/proc/self/fd", "fd" },       { "/proc/self/fd/0", "stdin" }, { "/proc/self/fd/1", "stdout" },
    { "/proc/self/fd/2", "stderr" }, { "pts/ptmx", "ptmx" },         { "/proc/kcore", "core" },
  };
  char dev[PATH_MAX], p[PATH_MAX], src[PATH_MAX], opts[128];
  size_t k;
  int fd = mount_point(f, "dev", op->b, MP_DIR);
  if (fd < 0 || fd_target(f, dev, sizeof dev, fd, op->b) < 0)
    return -1;
  /* /dev holds a dozen nodes and links: a small fixed bound. */
  if (mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=1m,nr_inodes=1024") < 0)
    return failed(f, "dev", "mounting a tmpfs on %s", op->b);
  close(fd);
  if (join(f, dev, sizeof dev, "/newroot", op->b) < 0)
    return -1;
  /* Device nodes cannot be created in a user namespace: bind the host's. */
  for (k = 0; k < sizeof nodes / sizeof nodes[0]; k++)
    {
      if (xpath(f, src, sizeof src, "/oldroot/dev/%s", nodes[k]) < 0 ||
          xpath(f, p, sizeof p, "%s/%s", dev, nodes[k]) < 0)
        return -1;
      /* In the tmpfs just mounted: no parent to make. */
      int nfd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0444);
      if (nfd < 0)
        return failed(f, "dev", "creating %s/%s", op->b, nodes[k]);
      close(nfd);
      if (mount(src, p, NULL, MS_BIND, NULL) < 0)
        return failed(f, "dev", "binding /dev/%s", nodes[k]);
    }
  for (k = 0; k < sizeof links / sizeof links[0]; k++)
    {
      if (strcmp(links[k][1], "core") == 0)
        continue;
      if (xpath(f, p, sizeof p, "%s/%s", dev, links[k][1]) < 0)
        return -1;
      if (symlink(links[k][0], p) < 0)
        return failed(f, "dev", "linking %s/%s", op->b, links[k][1]);
    }
  if (xpath(f, p, sizeof p, "%s/pts", dev) < 0)
    return -1;
  if (mkdir(p, 0755) < 0 ||
      mount("devpts", p, "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620") < 0)
    return failed(f, "dev", "mounting devpts on %s/pts", op->b);
  if (xpath(f, p, sizeof p, "%s/shm", dev) < 0)
    return -1;
  tmpfs_opts(opts, sizeof opts, "1777", op->size, op->inodes);
  if (mkdir(p, 01777) < 0 || mount("tmpfs", p, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
    return failed(f, "dev", "mounting a tmpfs on %s/shm", op->b);
  record("dev", 1, "%s: null zero full random urandom tty, pts, shm (%s), fd links", op->b, opts);
  return 0;
}

static int
op_proc(const struct op *op, const struct spec *s, struct mount_fail *f)
{
  char p[PATH_MAX], q[PATH_MAX], val[32];
  int fd = mount_point(f, "proc", op->b, MP_DIR);
  if (fd < 0)
    return -1;
  close(fd);
  if (join(f, p, sizeof p, "/newroot", op->b) < 0)
    return -1;
  /* The kernel refuses a fresh proc in a user namespace when the host's
   * /proc has parts hidden by over-mounts (as in many containers). */
  if (mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
    return failed(f, "proc", "mounting a fresh /proc");
  record("proc", 1, "fresh /proc for the new pid namespace");
  if (s->pid_max)
    {
      /* Since Linux 6.14 pid_max is per pid namespace and caps how many
       * processes the sandbox can hold, whatever the uid (RLIMIT_NPROC does
       * not bind a sandbox run by host root). Written before /proc/sys is
       * made read-only. */
      if (xpath(f, q, sizeof q, "%s/sys/kernel/pid_max", p) < 0 || xpath(f, val, sizeof val, "%ld", s->pid_max) < 0)
        return -1;
      if (write_file(q, val) == 0)
        record("pid_max", 1, "%ld", s->pid_max);
      else
        record("pid_max", 0, "not per-namespace on this kernel (%s)", strerror(errno));
    }
  return 0;
}

static int
op_sysfs(const struct op *op, struct mount_fail *f)
{
  char p[PATH_MAX];
  int fd = mount_point(f, "sysfs", op->b, MP_DIR);
  if (fd < 0)
    return -1;
  close(fd);
  join_netns(); /* sysfs shows, and is mounted by, the network namespace of the mounter */
  if (join(f, p, sizeof p, "/newroot", op->b) < 0)
    return -1;
  if (mount("sysfs", p, "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
    return failed(f, "sysfs", "mounting a read-only sysfs on %s", op->b);
  return 0;
}

static int nmasked, nmask_failed;

static int
op_remount_ro(const struct op *op, struct mount_fail *f)
{
  char p[PATH_MAX];
  if (join(f, p, sizeof p, "/newroot", op->b) < 0)
    return -1;
  if (access(p, F_OK) < 0)
    return 0; /* nothing to protect */
  if (mount(p, p, NULL, MS_BIND | MS_REC, NULL) < 0 ||
      set_mount_attrs(p, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 1) < 0)
    {
      nmask_failed++;
      record("mask", 0, "%s: %s", op->b, strerror(errno));
      return 0;
    }
  nmasked++;
  return 0;
}

/* Hides a path behind an empty, mode-000 stand-in: even a sandbox user that
 * owns the original (host root's files map to it when root runs sbx) gets
 * EACCES, since it holds no CAP_DAC_OVERRIDE. With `empty`, a directory
 * becomes an empty read-only one instead (mode 0555), so that tools walking
 * the tree (find, grep -r, node --test) see nothing rather than an error.
 * A missing path has nothing to hide; a symlink on the way fails the step:
 * what it points to would stay visible. */
static int
op_hide(const struct op *op, int empty, struct mount_fail *f)
{
  char p[PATH_MAX];
  struct stat st;
  int r, fd = open_in_root(op->b, MP_EXISTING);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return 0;
  if (fd < 0 && errno == ELOOP)
    return failed(f, "hide", "%s is or crosses a symlink: refused, since hiding it would leave its target visible",
                  op->b);
  if (fd < 0 || fstat(fd, &st) < 0)
    return failed(f, "hide", "%s", op->b);
  if (fd_target(f, p, sizeof p, fd, op->b) < 0)
    return -1;
  if (S_ISDIR(st.st_mode))
    {
      /* A read-only bind of an empty directory of the staging tmpfs: a new
       * tmpfs per hidden directory costs a superblock (~0.25 ms a run). */
      r = mount(empty ? "/.sbx-empty" : "/.sbx-none", p, NULL, MS_BIND, NULL);
      if (r == 0)
        {
          /* The flags go on the new mount: fd still names the directory under it
           * (a remount through it is EINVAL), so resolve again, into the mount. */
          close(fd);
          fd = open_in_root(op->b, MP_EXISTING);
          r = fd < 0 ? -1 :
                       set_attrs_fd(f, fd, op->b,
                                    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC, 0);
        }
    }
  else
    r = mount("/.sbx-void", p, NULL, MS_BIND, NULL);
  if (fd >= 0)
    close(fd);
  if (r < 0)
    {
      nmask_failed++;
      record("mask", 0, "%s: %s", op->b, strerror(errno));
      return 0;
    }
  nmasked++;
  return 0;
}

static int nprotected;

/* Makes a path already in the new root (under /work: a .git, a client's
 * settings) read-only where it is: a bind of itself over itself. The host
 * obeys what such a path holds, so the sandbox must not change it. A path
 * that is gone has nothing to protect; a symlink on the way fails the step,
 * and so does a mount that fails: the run does not go ahead unprotected. */
static int
op_protect(const struct op *op, struct mount_fail *f)
{
  char p[PATH_MAX];
  int fd = open_in_root(op->b, MP_EXISTING);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return 0;
  if (fd < 0 && errno == ELOOP)
    return failed(f, "protect", "%s is or crosses a symlink: refused, since its target would stay writable", op->b);
  if (fd < 0)
    return failed(f, "protect", "%s", op->b);
  if (fd_target(f, p, sizeof p, fd, op->b) < 0)
    return -1;
  if (mount(p, p, NULL, MS_BIND | MS_REC, NULL) < 0)
    return failed(f, "protect", "binding %s over itself", op->b);
  close(fd);
  /* The flags go on the new mount: resolve again, which crosses into it. */
  if ((fd = mount_point(f, "protect", op->b, MP_EXISTING)) < 0)
    return -1;
  if (set_attrs_fd(f, fd, op->b, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 1) < 0)
    return failed(f, "protect", "making %s read-only", op->b);
  close(fd);
  nprotected++;
  return 0;
}

static int
op_dir(const struct op *op, struct mount_fail *f)
{
  int fd = mount_point(f, "dir", op->b, MP_DIR);
  if (fd < 0)
    return -1;
  close(fd);
  return 0;
}

/* Shows a directory already in the new root (the work dir's /work) at a
 * second place too (its host path): a recursive bind of what is there, so
 * that every mount below it comes along (the hidden state dir, the protected
 * .git, Landlock's rules are the same inodes) with its flags and id-mapping.
 * Nothing is read from the host: the same tree, seen twice. */
static int
op_rebind(const struct op *op, struct mount_fail *f)
{
  char src[PATH_MAX], target[PATH_MAX];
  int sfd = mount_point(f, "rebind", op->a, MP_EXISTING), fd;
  if (sfd < 0)
    return -1;
  if ((fd = mount_point(f, "rebind", op->b, MP_DIR)) < 0)
    {
      close(sfd);
      return -1;
    }
  if (fd_target(f, src, sizeof src, sfd, op->a) < 0 || fd_target(f, target, sizeof target, fd, op->b) < 0)
    return -1;
  if (mount(src, target, NULL, MS_BIND | MS_REC, NULL) < 0)
    return failed(f, "rebind", "bind-mounting %s on %s", op->a, op->b);
  close(sfd);
  close(fd);
  return 0;
}

/* One entry of the spec's list of mounts: 0, or -1 with f filled. */
static int
op_run(const struct op *op, const struct spec *s, struct mount_fail *f)
{
  switch (op->kind)
    {
    case OP_RO_BIND:
      return op_bind(op, 1, f);
    case OP_BIND:
      return op_bind(op, 0, f);
    case OP_SYMLINK:
      return op_symlink(op, f);
    case OP_TMPFS:
      return op_tmpfs(op, f);
    case OP_DEV:
      return op_dev(op, f);
    case OP_PROC:
      return op_proc(op, s, f);
    case OP_SYSFS:
      return op_sysfs(op, f);
    case OP_REMOUNT_RO:
      return op_remount_ro(op, f);
    case OP_HIDE:
      return op_hide(op, 0, f);
    case OP_HIDE_EMPTY:
      return op_hide(op, 1, f);
    case OP_DIR:
      return op_dir(op, f);
    case OP_PROTECT:
      return op_protect(op, f);
    case OP_REBIND:
      return op_rebind(op, f);
    }
  return 0;
}

/* Detaches the host root, stacked at /.sbx-old, and removes that directory.
 * umount2(MNT_DETACH) takes the mounts out of the tree at once, then waits
 * for an RCU grace period before it returns (namespace_unlock), only so that
 * lookups already under way finish before the mounts are freed: measured
 * in cold `sbx run`s, 0.4-14 ms (~4 ms typical) while the caller's other CPU
 * is busy, the longest step of the sandbox. So a thread of init makes the
 * call, and init goes on once the host root is out of the tree: /.sbx-old
 * is then no mount point, and its rmdir, EBUSY until then, succeeds. init
 * sleeps on its mountinfo meanwhile (POLLPRI: the mount table changed).
 * Nothing runs in the sandbox before that rmdir; the command is still
 * waiting for init's go. A thread, not a process: no pid of the sandbox.
 * The grace period is not gone but moved: init's exit waits for the thread
 * (umount2 took 6-39 ms under perf trace), so a launcher that reaps init
 * (direct spawns, runs with a cgroup) still waits for it after a short
 * command; one forked by --serve without a cgroup does not (issue 29). */
struct detach
{
  int done, err;
};

static void *
detach_thread(void *arg)
{
  struct detach *d = arg;
  int err = umount2("/.sbx-old", MNT_DETACH) < 0 ? errno : 0;
  __atomic_store_n(&d->err, err, __ATOMIC_RELAXED);
  __atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void
detach_host_root(void)
{
  static struct detach d; /* the thread may outlive this call */
  pthread_attr_t attr;
  pthread_t t;
  int fd = open("/.sbx-old/oldroot/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
  int threaded = fd >= 0 && pthread_attr_init(&attr) == 0;
  if (threaded)
    {
      threaded = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                 pthread_attr_setstacksize(&attr, 64 * 1024) == 0 && pthread_create(&t, &attr, detach_thread, &d) == 0;
      pthread_attr_destroy(&attr);
    }
  if (!threaded)
    {
      /* No /proc of the host to wait on, or no thread: detach here. */
      if (fd >= 0)
        close(fd);
      if (umount2("/.sbx-old", MNT_DETACH) < 0)
        fail_step("pivot_root", "detaching the host root");
      if (rmdir("/.sbx-old") < 0)
        fail_step("pivot_root", "removing /.sbx-old");
      return;
    }
  while (rmdir("/.sbx-old") < 0)
    {
      struct pollfd pfd = { fd, POLLPRI, 0 };
      if (errno != EBUSY)
        fail_step("pivot_root", "removing /.sbx-old");
      if (__atomic_load_n(&d.done, __ATOMIC_ACQUIRE))
        {
          /* The thread is done: the host root is out, or it failed. */
          errno = d.err;
          if (d.err != 0)
            fail_step("pivot_root", "detaching the host root");
          if (rmdir("/.sbx-old") < 0)
            fail_step("pivot_root", "removing /.sbx-old");
          break;
        }
      /* The wait is bounded: the thread's end is checked every millisecond. */
      (void)poll(&pfd, 1, 1);
    }
  close(fd);
}

/* Builds the new root as bwrap does: a tmpfs becomes / with the host root
 * under /oldroot, so sources (even ones under the host's /tmp) stay reachable
 * while the new tree is assembled under /newroot; then the host root is
 * detached and /newroot pivoted to /. */
void
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
    /* ... and over directories: empty and listable (--hide-empty), or closed (--hide). */
    if (mkdir("/.sbx-empty", 0555) < 0 || mkdir("/.sbx-none", 0) < 0 || chmod("/.sbx-empty", 0555) < 0 ||
        chmod("/.sbx-none", 0) < 0)
      fail_step("root", "creating the stand-ins for hidden directories");
  }

  for (i = 0; i < s->nops; i++)
    {
      struct mount_fail f;
      if (op_run(&s->ops[i], s, &f) < 0)
        {
          /* The first failed mount ends the run: what failed, with its errno. */
          errno = f.err;
          fail_step(f.step, "%s", f.what);
        }
    }
  close_root_fd();
  if (nprotected > 0)
    record("protect", 1, "%d path(s) of the work dir read-only", nprotected);
  if (nmasked + nmask_failed > 0)
    record("proc_masked", nmask_failed == 0, "%d path(s) read-only or hidden, %d failed", nmasked, nmask_failed);

  /* Pivot into the new root with the staging tmpfs (and the host root below
   * it) stacked at /.sbx-old, then detach that whole tree in one lazy
   * unmount: nothing of the host's mount tree stays reachable. One detach,
   * not two: each costs an RCU grace period. */
  if (mkdir("/newroot/.sbx-old", 0700) < 0 || chdir("/newroot") < 0)
    fail_step("pivot_root", "preparing /newroot");
  if (syscall(SYS_pivot_root, ".", ".sbx-old") < 0)
    fail_step("pivot_root", "pivot_root to the new root");
  detach_host_root();
  if (chdir("/") < 0)
    fail_step("pivot_root", "chdir /");
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
