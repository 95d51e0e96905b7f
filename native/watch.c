/* sbx-launch --watch: a resident watcher of one work tree (inotify), so that
 * a run can learn "nothing changed since the last run" without walking it
 * (src/host/tree-watch.ts; the argument for why that is exact is in
 * docs/sandbox.md, "How the tree is watched").
 *
 *   sbx-launch --watch WORK --socket PATH [--not-into REL]... [--shallow NAME]...
 *       [--watch-dir ABS]... [--idle SECONDS] [--max-watchers N]
 *
 * It watches every directory under WORK but --not-into ones (the state dir)
 * and, for a directory named --shallow (.git), only it and the directories
 * right inside it; --watch-dir: a directory outside WORK whose own entries
 * matter (a git dir elsewhere). Then it answers on the unix socket PATH (only
 * processes of its own user and mount namespace: never a sandbox's), one
 * question per connection (the write side shut after it):
 *   Q\n                  -> T<epoch>.<generation>\n, then the scan stored
 *                         with exactly that token, if any
 *   S<token>\n<scan>     -> K\n kept, or X\n dropped: an event came after token
 * or, on a connection kept open (the resident sbx's), any number of framed ones:
 *   q\n                  -> T<token> <length>\n<scan> (length 0: none)
 *   s<token> <length>\n<scan> -> K\n or X\n
 * Equal tokens mean no event between them; the scan is the caller's (the
 * fingerprint and control entries it found walking right after it got token):
 * the watcher only keeps it, for as long as nothing changes.
 * The generation counts every event (a file written, made, removed, moved,
 * chmod'ed, touched) in what is watched. Before answering, the watcher reads
 * every event the kernel has queued: an event is queued by the system call
 * that made the change, so a change made before the question is counted.
 * Whenever it cannot be sure it sees everything (the kernel's queue
 * overflowed; a directory moved, so the paths it knows are stale; a watch
 * could not be added) it starts over with a new epoch: every token given
 * before no longer matches, and the caller walks. When watches run out
 * (fs.inotify.max_user_watches, of which it takes a quarter at most: the
 * user's editor needs them too) it writes PATH.off with the reason and exits:
 * the caller then walks, and does not start a watcher again for a while.
 * It does not watch a work dir on a network file system (nor one mounted in
 * it): changes made on another machine make no event here.
 * Exits after --idle seconds without a question (default 1800) and when WORK
 * is removed, or on SIGTERM. One watcher per PATH (a lock, PATH.lock); none
 * when --max-watchers live ones already listen beside PATH (sockets named
 * with its prefix up to the first '-'; those no one listens on are removed). */
#define _GNU_SOURCE
#include "watch.h"
#include "util.h"
#include <dirent.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/random.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <sys/socket.h>
#include <poll.h>

#define MAX_NAMES 64
/* The most a caller may store (its fingerprint and control entries). */
#define MAX_SCAN (8 << 20)
#define DIR_EVENTS                                                                                                     \
  (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF |     \
   IN_MOVE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR | IN_EXCL_UNLINK)

struct wdir
{
  char *path; /* relative to WORK ("" for it), or absolute for a --watch-dir */
  int depth;  /* how many levels further down are watched: -1 all */
};

static struct
{
  int ifd;
  const char *socket;
  const char *not_into[MAX_NAMES];
  int n_not_into;
  const char *shallow[MAX_NAMES];
  int n_shallow;
  const char *also[MAX_NAMES];
  int n_also;
  struct wdir *wds;
  int cap_wds;
  unsigned long long epoch, gen;
  int root_wd;
  long watches, max_watches;
  dev_t root_dev;
  const char *doubt; /* why a new epoch is due, NULL when none */
  char *scan;        /* what the caller stored with scan_token */
  size_t scan_len;
  char scan_token[64];
} X;

static void
off(const char *why)
{
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s.off", X.socket) < (int)sizeof path)
    {
      int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
      if (fd >= 0)
        {
          if (write(fd, why, strlen(why)) < 0)
            { /* the marker is a hint: nothing more to do */
            }
          close(fd);
        }
    }
  unlink(X.socket);
  exit(0);
}

static void
remember(int wd, const char *path, int depth)
{
  if (wd >= X.cap_wds)
    {
      int cap = X.cap_wds ? X.cap_wds : 1024;
      while (cap <= wd)
        cap *= 2;
      X.wds = xrealloc(X.wds, (size_t)cap * sizeof *X.wds);
      memset(X.wds + X.cap_wds, 0, (size_t)(cap - X.cap_wds) * sizeof *X.wds);
      X.cap_wds = cap;
    }
  free(X.wds[wd].path);
  X.wds[wd].path = xstrdup(path);
  X.wds[wd].depth = depth;
}

static int
is_shallow(const char *name)
{
  for (int i = 0; i < X.n_shallow; i++)
    if (strcmp(X.shallow[i], name) == 0)
      return 1;
  return 0;
}

static int
not_into(const char *rel)
{
  for (int i = 0; i < X.n_not_into; i++)
    if (strcmp(X.not_into[i], rel) == 0)
      return 1;
  return 0;
}

/* A file system whose changes may be made elsewhere, where inotify never
 * hears of them: NFS, SMB/CIFS, FUSE, 9p, Ceph, AFS. */
static int
remote_fs(int fd)
{
  struct statfs sf;
  if (fstatfs(fd, &sf) != 0)
    return 1;
  switch ((unsigned long)sf.f_type)
    {
    case 0x6969:     /* NFS */
    case 0x517B:     /* SMB */
    case 0xFF534D42: /* CIFS */
    case 0xFE534D42: /* SMB2 */
    case 0x65735546: /* FUSE */
    case 0x01021997: /* 9P */
    case 0x00C36400: /* Ceph */
    case 0x5346414F: /* AFS */
      return 1;
    default:
      return 0;
    }
}

/* Watches path (relative to WORK, the cwd) and the directories under it, each
 * watched before it is listed: what is made in it after the listing is an
 * event, what was made before is in the listing. 0, or -1 with X.doubt set. */
static int
add_tree(const char *top, int top_depth)
{
  struct item
  {
    char *path;
    int depth;
  } *stack = NULL;
  size_t n = 0, cap = 0;
  char child[PATH_MAX];
  int rc = 0;

#define PUSH(p, d)                                                                                                     \
  (stack = xgrow(stack, &cap, n + 1, sizeof *stack, 256), stack[n].path = xstrdup(p), stack[n++].depth = (d))

  PUSH(top, top_depth);
  while (n)
    {
      struct item it = stack[--n];
      const char *p = *it.path ? it.path : ".";
      int wd = inotify_add_watch(X.ifd, p, DIR_EVENTS);
      if (wd < 0)
        {
          if (errno == ENOSPC || errno == ENOMEM)
            off("the inotify watches ran out (fs.inotify.max_user_watches)");
          if (errno != ENOENT && errno != ENOTDIR)
            {
              /* EACCES: a directory the watcher cannot read, nor see changes in */
              X.doubt = "a directory could not be watched";
              rc = -1;
            }
          /* Gone, or no longer a directory, since its parent was listed: that
           * was an event in the parent, counted there. */
          free(it.path);
          continue;
        }
      remember(wd, it.path, it.depth);
      /* The user's editor and tools share the per-user limit: this tree takes a quarter at most. */
      if (++X.watches > X.max_watches)
        off("the tree has more directories than a quarter of fs.inotify.max_user_watches");
      if (it.depth == 0)
        {
          free(it.path);
          continue;
        }
      int dfd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
      if (!d)
        {
          if (dfd >= 0)
            close(dfd);
          if (errno != ENOENT && errno != ENOTDIR)
            {
              X.doubt = "a directory could not be listed";
              rc = -1;
            }
          free(it.path);
          continue;
        }
      struct stat dst;
      /* Another file system mounted here: one of another machine's is not watched. */
      if (fstat(dirfd(d), &dst) != 0 || (dst.st_dev != X.root_dev && remote_fs(dirfd(d))))
        off("a network file system in the work dir: changes made elsewhere would not be seen");
      struct dirent *e;
      while ((e = readdir(d)) != NULL)
        {
          const char *nm = e->d_name;
          if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
            continue;
          unsigned char t = e->d_type;
          if (t == DT_UNKNOWN)
            {
              struct stat st;
              if (fstatat(dirfd(d), nm, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
              t = IFTODT(st.st_mode);
            }
          if (t != DT_DIR)
            continue;
          int k =
              *it.path ? snprintf(child, sizeof child, "%s/%s", it.path, nm) : snprintf(child, sizeof child, "%s", nm);
          if (k >= (int)sizeof child)
            {
              X.doubt = "a path too long to watch";
              rc = -1;
              continue;
            }
          if (not_into(child))
            continue;
          int depth = it.depth < 0 ? (is_shallow(nm) ? 1 : -1) : it.depth - 1;
          PUSH(child, depth);
        }
      closedir(d);
      free(it.path);
    }
#undef PUSH
  free(stack);
  return rc;
}

static unsigned long long
random_epoch(void)
{
  unsigned long long v = 0;
  if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
    v = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
  return v;
}

/* A new inotify instance watching everything: a new epoch. */
static void
start_over(void)
{
  if (X.ifd >= 0)
    close(X.ifd);
  for (int i = 0; i < X.cap_wds; i++)
    {
      free(X.wds[i].path);
      X.wds[i].path = NULL;
    }
  X.ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (X.ifd < 0)
    off("no inotify instance (fs.inotify.max_user_instances)");
  X.epoch = random_epoch();
  X.gen = 0;
  X.watches = 0;
  free(X.scan);
  X.scan = NULL;
  X.doubt = NULL;
  struct stat st;
  int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (here < 0 || fstat(here, &st) != 0 || remote_fs(here))
    off("the work dir is on a network file system: changes made elsewhere would not be seen");
  close(here);
  X.root_dev = st.st_dev;
  X.root_wd = inotify_add_watch(X.ifd, ".", DIR_EVENTS);
  if (X.root_wd < 0)
    off("the work dir cannot be watched");
  if (add_tree("", -1) != 0)
    off(X.doubt); /* a directory it cannot watch stays so: no tokens, the caller walks */
  for (int i = 0; i < X.n_also; i++)
    {
      int wd = inotify_add_watch(X.ifd, X.also[i], DIR_EVENTS);
      if (wd >= 0)
        remember(wd, X.also[i], 0);
      else if (errno == ENOSPC || errno == ENOMEM)
        off("the inotify watches ran out (fs.inotify.max_user_watches)");
      else if (errno != ENOENT)
        off("a directory outside the work dir could not be watched");
    }
}

/* Reads every queued event. 1 when the work dir itself is gone. */
static int
drain(void)
{
  char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
  for (;;)
    {
      ssize_t k = TEMP_FAILURE_RETRY(read(X.ifd, buf, sizeof buf));
      if (k < 0)
        {
          if (errno == EAGAIN)
            break;
          X.doubt = "reading the events failed";
          break;
        }
      for (char *p = buf; p < buf + k;)
        {
          struct inotify_event *ev = (struct inotify_event *)p;
          p += sizeof *ev + ev->len;
          X.gen++;
          if (ev->mask & IN_Q_OVERFLOW)
            {
              X.doubt = "the event queue overflowed";
              continue;
            }
          if (ev->wd == X.root_wd && (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)))
            return 1;
          if (ev->mask & IN_IGNORED)
            {
              if (ev->wd >= 0 && ev->wd < X.cap_wds)
                {
                  free(X.wds[ev->wd].path);
                  X.wds[ev->wd].path = NULL;
                }
              continue;
            }
          /* The paths known for a moved directory and all under it are stale. */
          if (ev->mask & (IN_MOVE_SELF | IN_MOVED_FROM | IN_MOVED_TO) && (ev->mask & (IN_ISDIR | IN_MOVE_SELF)))
            {
              X.doubt = "a directory moved";
              continue;
            }
          if ((ev->mask & IN_CREATE) && (ev->mask & IN_ISDIR) && ev->len && !X.doubt)
            {
              struct wdir *w = ev->wd >= 0 && ev->wd < X.cap_wds ? &X.wds[ev->wd] : NULL;
              char child[PATH_MAX];
              if (!w || !w->path || w->path[0] == '/')
                continue; /* removed since, or a --watch-dir (not looked into) */
              if (w->depth == 0)
                continue;
              int n = *w->path ? snprintf(child, sizeof child, "%s/%s", w->path, ev->name) :
                                 snprintf(child, sizeof child, "%s", ev->name);
              if (n >= (int)sizeof child)
                {
                  X.doubt = "a path too long to watch";
                  continue;
                }
              if (not_into(child))
                continue;
              add_tree(child, w->depth < 0 ? (is_shallow(ev->name) ? 1 : -1) : w->depth - 1);
            }
        }
    }
  return 0;
}

/* The peer is a process of this machine's own namespaces (never a sandbox's). */
static int
same_namespace(int c)
{
  struct ucred cr;
  socklen_t len = sizeof cr;
  char a[64], b[64], p[64];
  ssize_t ka, kb;
  if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 || cr.uid != getuid() || cr.pid <= 0)
    return 0;
  snprintf(p, sizeof p, "/proc/%d/ns/mnt", (int)cr.pid);
  ka = readlink(p, a, sizeof a);
  kb = readlink("/proc/self/ns/mnt", b, sizeof b);
  return ka > 0 && ka == kb && memcmp(a, b, (size_t)ka) == 0;
}

/* The current token. */
static int
token_now(char *token, size_t size)
{
  if (X.doubt)
    start_over();
  return snprintf(token, size, "%016llx.%llu", X.epoch, X.gen);
}

/* Keeps SCAN (LEN bytes) with TOK (TLEN bytes) if nothing happened since
 * that token was given. 1 when kept. */
static int
keep(const char *tok, size_t tlen, const char *scan, size_t len)
{
  char token[64];
  int n = token_now(token, sizeof token);
  if (tlen != (size_t)n || memcmp(tok, token, tlen) != 0)
    return 0;
  free(X.scan);
  X.scan_len = len;
  X.scan = malloc(len ? len : 1);
  if (!X.scan)
    return 0;
  memcpy(X.scan, scan, len);
  memcpy(X.scan_token, token, (size_t)n + 1);
  return 1;
}

/* The scan kept with the current token, NULL when none. */
static const char *
kept(const char *token, size_t *len)
{
  int current = X.scan && strcmp(X.scan_token, token) == 0;
  *len = current ? X.scan_len : 0;
  return current ? X.scan : NULL;
}

static int
send_all(int c, const char *p, size_t len)
{
  while (len)
    {
      ssize_t k = TEMP_FAILURE_RETRY(send(c, p, len, MSG_NOSIGNAL));
      if (k <= 0)
        return -1;
      p += k;
      len -= (size_t)k;
    }
  return 0;
}

/* A connection: one question written whole and the write side shut ("Q\n":
 * the token, and the scan stored with it if it is still current;
 * "S<token>\n<scan>": keep the scan, taken after the token was given, if no
 * event came since), answered and closed; or, kept open by the resident sbx,
 * any number of framed ones ("q\n" answered "T<token> <len>\n<scan>";
 * "s<token> <len>\n<scan>" answered "K\n" or "X\n"), each answered in turn
 * after the events queued by then are read. */
#define MAX_CLIENTS 32
static struct client
{
  int fd;
  char *p;
  size_t len, cap;
  unsigned long long last; /* when it last asked, for eviction */
} C[MAX_CLIENTS];
static unsigned long long ticks;

static void
drop(struct client *c)
{
  close(c->fd);
  free(c->p);
  memset(c, 0, sizeof *c);
  c->fd = -1;
}

static void
accept_one(int lfd)
{
  int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
  if (fd < 0)
    return;
  struct timeval tv = { .tv_sec = 2 };
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (!same_namespace(fd))
    {
      close(fd);
      return;
    }
  struct client *slot = NULL;
  for (int i = 0; i < MAX_CLIENTS; i++)
    if (C[i].fd < 0 && (slot = &C[i]))
      break;
  if (!slot)
    { /* full: the one idle longest goes (its owner asks anew, or walks) */
      slot = &C[0];
      for (int i = 1; i < MAX_CLIENTS; i++)
        if (C[i].last < slot->last)
          slot = &C[i];
      drop(slot);
    }
  slot->fd = fd;
  slot->last = ++ticks;
}

/* Answers the framed questions complete in c's buffer. -1: a bad one (closed). */
static int
framed(struct client *c)
{
  size_t used = 0;
  for (;;)
    {
      char *m = c->p + used, *nl = memchr(m, '\n', c->len - used);
      if (!nl)
        break;
      char token[64];
      if (m[0] == 'q' && nl == m + 1)
        {
          int n = token_now(token, sizeof token);
          size_t len;
          const char *scan = kept(token, &len);
          char head[96];
          int h = snprintf(head, sizeof head, "T%.*s %zu\n", n, token, scan ? len : 0);
          if (send_all(c->fd, head, (size_t)h) != 0 || (scan && send_all(c->fd, scan, len) != 0))
            return -1;
          used = (size_t)(nl + 1 - c->p);
          continue;
        }
      if (m[0] != 's')
        return -1;
      char *sp = memchr(m, ' ', (size_t)(nl - m));
      char *end;
      if (!sp)
        return -1;
      unsigned long long len = strtoull(sp + 1, &end, 10);
      if (end != nl || len > MAX_SCAN)
        return -1;
      if ((size_t)(c->p + c->len - (nl + 1)) < len)
        break; /* the rest comes */
      int ok = keep(m + 1, (size_t)(sp - m - 1), nl + 1, (size_t)len);
      if (send_all(c->fd, ok ? "K\n" : "X\n", 2) != 0)
        return -1;
      used = (size_t)(nl + 1 - c->p) + (size_t)len;
    }
  memmove(c->p, c->p + used, c->len - used);
  c->len -= used;
  return 0;
}

/* The old form, at the end of its connection. */
static void
one_shot(struct client *c)
{
  char token[64];
  const char *nl = c->len ? memchr(c->p, '\n', c->len) : NULL;
  if (nl && c->p[0] == 'Q')
    {
      int n = token_now(token, sizeof token);
      size_t len;
      const char *scan = kept(token, &len);
      dprintf(c->fd, "T%.*s\n", n, token);
      if (scan)
        send_all(c->fd, scan, len);
    }
  else if (nl && c->p[0] == 'S')
    {
      int ok = keep(c->p + 1, (size_t)(nl - c->p - 1), nl + 1, c->len - (size_t)(nl + 1 - c->p));
      dprintf(c->fd, ok ? "K\n" : "X\n");
    }
}

/* Reads what c sent; questions are answered only after the events queued by
 * then are read (drain, by the caller, after this read). 1 when it is done. */
static int
take(struct client *c)
{
  for (;;)
    {
      if (c->len == c->cap)
        {
          size_t cap = c->cap ? c->cap * 2 : 4096;
          if (cap > MAX_SCAN + 64)
            return 1;
          c->p = xrealloc(c->p, cap);
          c->cap = cap;
        }
      ssize_t k = TEMP_FAILURE_RETRY(recv(c->fd, c->p + c->len, c->cap - c->len, MSG_DONTWAIT));
      if (k == 0)
        return 2; /* its end */
      if (k < 0)
        return errno == EAGAIN ? 0 : 1;
      c->len += (size_t)k;
    }
}

static volatile sig_atomic_t stopping;

static void
on_stop(int sig)
{
  (void)sig;
  stopping = 1;
}

/* The live watchers beside ours (sockets in its directory named with its
 * prefix, up to the first '-'); those no one listens on (a watcher killed)
 * are removed. */
static int
live_peers(void)
{
  char dir[PATH_MAX];
  const char *slash = strrchr(X.socket, '/');
  const char *base = slash ? slash + 1 : X.socket;
  const char *dash = strchr(base, '-');
  size_t plen = dash ? (size_t)(dash - base + 1) : 0;
  int n = 0;
  if (!slash || !plen || (size_t)(slash - X.socket) >= sizeof dir)
    return 0;
  memcpy(dir, X.socket, (size_t)(slash - X.socket));
  dir[slash - X.socket] = 0;
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    {
      size_t k = strlen(e->d_name);
      if (e->d_type != DT_SOCK || strncmp(e->d_name, base, plen) != 0 || k < 5 ||
          strcmp(e->d_name + k - 5, ".sock") != 0)
        continue;
      struct sockaddr_un a = { .sun_family = AF_UNIX };
      if ((size_t)snprintf(a.sun_path, sizeof a.sun_path, "%s/%s", dir, e->d_name) >= sizeof a.sun_path)
        continue;
      int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      if (fd < 0)
        continue;
      if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0 || errno == EAGAIN)
        n++;
      else if (errno == ECONNREFUSED)
        unlink(a.sun_path);
      close(fd);
    }
  closedir(d);
  return n;
}

int
watch_main(int argc, char **argv)
{
  long idle = 1800, max_peers = LONG_MAX;
  char lock[PATH_MAX];
  struct sockaddr_un addr = { .sun_family = AF_UNIX };

  if (argc < 2)
    die("--watch: usage: sbx-launch --watch WORK --socket PATH [--not-into REL]... [--shallow NAME]... "
        "[--watch-dir ABS]... [--idle SECONDS] [--max-watchers N]");
  X.ifd = -1;
  for (int i = 2; i < argc; i += 2)
    {
      const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!v)
        die("--watch: %s needs a value", f);
      if (strcmp(f, "--socket") == 0)
        X.socket = v;
      else if (strcmp(f, "--not-into") == 0 && X.n_not_into < MAX_NAMES)
        X.not_into[X.n_not_into++] = v;
      else if (strcmp(f, "--shallow") == 0 && X.n_shallow < MAX_NAMES)
        X.shallow[X.n_shallow++] = v;
      else if (strcmp(f, "--watch-dir") == 0 && X.n_also < MAX_NAMES && v[0] == '/')
        X.also[X.n_also++] = v;
      else if (strcmp(f, "--max-watchers") == 0)
        {
          if (parse_long(v, 1, 1L << 20, &max_peers) != 0)
            die("--watch: --max-watchers %s: not a count", v);
        }
      else if (strcmp(f, "--idle") == 0)
        {
          if (parse_long(v, 1, 1L << 30, &idle) != 0)
            die("--watch: --idle %s: not a count of seconds", v);
        }
      else
        die("--watch: unknown flag %s (or too many)", f);
    }
  if (!X.socket || strlen(X.socket) + 12 >= sizeof addr.sun_path ||
      snprintf(lock, sizeof lock, "%s.lock", X.socket) >= (int)sizeof lock)
    die("--watch: --socket PATH is needed, shorter than %zu bytes", sizeof addr.sun_path);
  int lk = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (lk < 0)
    die_with_error("--watch: %s", lock);
  if (flock(lk, LOCK_EX | LOCK_NB) != 0)
    return 0; /* another watcher has it */
  X.max_watches = 8192 / 4;
  FILE *f = fopen("/proc/sys/fs/inotify/max_user_watches", "re");
  if (f)
    {
      long v;
      if (fscanf(f, "%ld", &v) == 1 && v > 0)
        X.max_watches = v / 4;
      fclose(f);
    }
  /* A connection to our own socket, not yet there, is not counted. */
  if (live_peers() >= max_peers)
    off("as many watchers as --max-watchers already run");
  struct sigaction sa = { .sa_handler = on_stop };
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  if (chdir(argv[1]) != 0)
    die_with_error("--watch: %s", argv[1]);
  signal(SIGPIPE, SIG_IGN);

  start_over();
  /* Listening only once everything is watched: until then a caller finds no
   * one and walks. */
  /* Bound under another name and renamed into place once it listens: a
   * caller never finds the name with no one listening (which it takes for a
   * watcher that was killed, and removes). */
  if ((size_t)snprintf(addr.sun_path, sizeof addr.sun_path, "%s.%d", X.socket, (int)getpid()) >= sizeof addr.sun_path)
    die("--watch: --socket %s: too long", X.socket);
  unlink(addr.sun_path);
  int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(lfd, 64) != 0 ||
      chmod(addr.sun_path, 0600) != 0 || rename(addr.sun_path, X.socket) != 0)
    die_with_error("--watch: %s", X.socket);

  time_t asked = time(NULL);
  for (int i = 0; i < MAX_CLIENTS; i++)
    C[i].fd = -1;
  for (;;)
    {
      struct pollfd p[2 + MAX_CLIENTS] = { { .fd = X.ifd, .events = POLLIN }, { .fd = lfd, .events = POLLIN } };
      for (int i = 0; i < MAX_CLIENTS; i++)
        p[2 + i] = (struct pollfd){ .fd = C[i].fd, .events = POLLIN };
      struct stat st;
      /* Awake at least once a minute: the work dir removed (its last event may
       * not come: this process's cwd holds it) or idle for long enough. */
      int r = poll(p, 2 + MAX_CLIENTS, (int)(idle < 60 ? idle : 60) * 1000);
      if (stopping)
        break;
      if (r < 0 && errno != EINTR)
        die_with_error("--watch: poll");
      if (stat(".", &st) != 0 || st.st_nlink == 0 || time(NULL) - asked >= idle)
        break;
      if (r <= 0)
        continue;
      /* take(): 0 open, 1 failed, 2 at its end; -1 nothing read. */
      int got[MAX_CLIENTS];
      for (int i = 0; i < MAX_CLIENTS; i++)
        got[i] = C[i].fd >= 0 && (p[2 + i].revents & (POLLIN | POLLHUP | POLLERR)) ? take(&C[i]) : -1;
      /* Every question first reads what is queued: a change made before it
       * (before it was sent, so before it was read above) is counted. */
      if (drain())
        break;
      for (int i = 0; i < MAX_CLIENTS; i++)
        {
          if (got[i] < 0)
            continue;
          asked = time(NULL);
          C[i].last = ++ticks;
          int framing = C[i].len && (C[i].p[0] == 'q' || C[i].p[0] == 's');
          if (got[i] == 1 || (framing && framed(&C[i]) != 0))
            drop(&C[i]);
          else if (got[i] == 2)
            {
              if (!framing)
                one_shot(&C[i]);
              drop(&C[i]);
            }
        }
      if (p[1].revents & POLLIN)
        accept_one(lfd);
    }
  unlink(X.socket);
  return 0;
}
