/* sbx-client: what hooks and rewritten command lines start instead of Node.
 *
 * `sbx-client ARGS...` is `node dist/cli.cjs ARGS...`. For the calls an agent
 * makes on every tool call (`run`, `host`, `hook <client>-pre|post`) it asks the
 * resident sbx of this install (`sbx daemon`, a warm Node process) to run
 * them: argv, cwd, the environment and the hook's stdin go over a unix
 * socket, the command's stdout and stderr come back as frames, and this
 * process exits with the command's code. Everything else, and every case
 * where the resident sbx cannot be reached or declines, exec's Node with the
 * same argv (and the stdin already read), so the output is the same either
 * way. When no resident sbx answers, one is started in the background for
 * the next call; this call does not wait for it.
 *
 * Where: a 0700 directory of ours, $XDG_RUNTIME_DIR/sbx or /tmp/sbx-<uid>
 * (refused unless we own it and no one else can enter it), holding
 * <hash>.sock, <hash>.key (the server's secret, 0600: a client proves it is
 * this user by reading it) and <hash>.lock; <hash> names the install (FNV-1a
 * of its real path), so two checkouts do not share a server. The server's
 * own uid is checked with SO_PEERCRED before anything is sent.
 *
 * Frames, both ways: a 4-byte little-endian length, a type byte, the payload
 * (the length counts the type byte). Client to server: 'H' header (NUL-
 * terminated fields: protocol, key, cwd, umask, groups, cgroup, argc,
 * argv..., environ...), 'I' stdin bytes, 'E' end of stdin, 'S' a signal's name.
 * Server to client: 'A' accepted, 'F' declined (reason: this process falls
 * back to Node), 'O' stdout bytes, 'R' stderr bytes, 'X' exit code. The
 * protocol is src/cli/resident/protocol.ts. */
#define _GNU_SOURCE
#include "util.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* Bumped with every change of the frames above; src/cli/resident/protocol.ts has the same. */
#define PROTO "sbx-client/2"
#define CLIENT_PREFIX "sbx: "
#define EXIT_INTERNAL 70
/* The most a hook reads of its stdin (src/integrations/hook/run-hook.ts: 64 MiB); one byte more says "too long". */
#define MAX_STDIN ((64u << 20) + 1)
#define MAX_FRAME (16u << 20)

extern char **environ;

static char root[PATH_MAX];
static int is_hook;
/* SBX_RESIDENT=require: no falling back to Node, say why instead (for tests, and to check a set-up). */
static int required;

/* The launcher's die path (util.c vdie) in the client's words ("sbx: ", exit
 * EXIT_INTERNAL, or 0 for a hook: set by main and served), naming errno when a
 * call set it. */
static void __attribute__((noreturn, format(printf, 1, 2))) die_client(const char *fmt, ...)
{
  int saved = errno;
  va_list ap;
  va_start(ap, fmt);
  vdie(saved ? saved : -1, fmt, ap);
}

/* write_all (util.c) that also waits out an inherited non-blocking pipe. */
static int
write_waiting(int fd, const void *buf, size_t len)
{
  const char *p = buf;
  while (len > 0)
    {
      ssize_t n = write(fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        {
          /* An inherited non-blocking pipe that is full: wait for the reader. */
          struct pollfd w = { .fd = fd, .events = POLLOUT };
          poll(&w, 1, -1);
          continue;
        }
      if (n <= 0)
        return -1;
      p += n;
      len -= (size_t)n;
    }
  return 0;
}

/* ── the install and its server's place ─────────────────────────────────── */

/* The package root: this binary is <root>/build/sbx-client. */
static int
find_root(void)
{
  ssize_t n = readlink("/proc/self/exe", root, sizeof root - 1);
  if (n <= 0)
    return -1;
  root[n] = '\0';
  for (int up = 0; up < 2; up++)
    {
      char *slash = strrchr(root, '/');
      if (slash == NULL || slash == root)
        return -1;
      *slash = '\0';
    }
  return 0;
}

/* FNV-1a, 64 bits, as 16 hex digits (src/cli/resident/place.ts). */
static void
install_hash(char out[17])
{
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char *p = (const unsigned char *)root; *p; p++)
    h = (h ^ *p) * 0x100000001b3ULL;
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* A directory only we can enter: made if missing, refused if it is anything else. */
static int
private_dir(const char *dir)
{
  struct stat st;
  if (mkdir(dir, 0700) < 0 && errno != EEXIST)
    return -1;
  if (lstat(dir, &st) < 0)
    return -1;
  return S_ISDIR(st.st_mode) && st.st_uid == getuid() && (st.st_mode & 077) == 0 ? 0 : -1;
}

/* dir: $XDG_RUNTIME_DIR/sbx when that is an absolute dir of ours, else /tmp/sbx-<uid>. */
static int
socket_dir(char *dir, size_t size)
{
  const char *xdg = getenv("XDG_RUNTIME_DIR");
  struct stat st;
  if (xdg && xdg[0] == '/' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
      (size_t)snprintf(dir, size, "%s/sbx", xdg) < size && private_dir(dir) == 0)
    return 0;
  if ((size_t)snprintf(dir, size, "/tmp/sbx-%u", (unsigned)getuid()) >= size)
    return -1;
  return private_dir(dir);
}

/* ── falling back to Node ───────────────────────────────────────────────── */

static void
node_path(char *out, size_t size)
{
  const char *env = getenv("SBX_NODE");
  if (env && env[0])
    {
      snprintf(out, size, "%s", env);
      return;
    }
  /* Written by scripts/build-native.js: the node that built this install. */
  char file[PATH_MAX + 32];
  snprintf(file, sizeof file, "%s/build/node-path", root);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read(fd, out, size - 1);
  if (fd >= 0)
    close(fd);
  while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
    n--;
  if (n > 0 && out[0] == '/')
    {
      out[n] = '\0';
      if (access(out, X_OK) == 0)
        return;
    }
  snprintf(out, size, "node");
}

/* stdin: what was already read of it (NULL: nothing was), handed to Node as its fd 0. */
static void __attribute__((noreturn)) exec_node(char **argv, int argc, const char *stdin_buf, size_t stdin_len)
{
  char node[PATH_MAX], cli[PATH_MAX + 32];
  node_path(node, sizeof node);
  snprintf(cli, sizeof cli, "%s/dist/cli.cjs", root);
  if (stdin_buf != NULL)
    {
      int fd = memfd_create("sbx-stdin", MFD_CLOEXEC);
      if (fd < 0)
        fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
      if (fd < 0 || write_waiting(fd, stdin_buf, stdin_len) < 0 || lseek(fd, 0, SEEK_SET) < 0 || dup2(fd, 0) < 0)
        die_client("cannot hand the hook's input to node");
    }
  char **args = calloc((size_t)argc + 2, sizeof *args);
  if (args == NULL)
    die_client("out of memory");
  args[0] = node;
  args[1] = cli;
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  signal(SIGPIPE, SIG_DFL);
  execvp(node, args);
  die_client("cannot start %s %s", node, cli);
}

/* Node runs this call, unless SBX_RESIDENT=require. */
static void __attribute__((noreturn))
fall_back(const char *why, char **argv, int argc, const char *stdin_buf, size_t stdin_len)
{
  if (required)
    {
      fprintf(stderr, CLIENT_PREFIX "SBX_RESIDENT=require: the resident sbx did not run this call: %s\n", why);
      exit(69);
    }
  exec_node(argv, argc, stdin_buf, stdin_len);
}

/* ── starting the resident sbx ──────────────────────────────────────────── */

/* Starts `node dist/cli.cjs daemon` detached, unless another client is starting one (the lock). The
 * daemon inherits the lock as fd 3 and lets it go once it listens; this call does not wait for it. */
static void
start_server(const char *dir, const char *hash)
{
  char path[PATH_MAX], node[PATH_MAX], cli[PATH_MAX + 32];
  if ((size_t)snprintf(path, sizeof path, "%s/%s.lock", dir, hash) >= sizeof path)
    return;
  int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (lock < 0)
    return;
  if (flock(lock, LOCK_EX | LOCK_NB) < 0)
    {
      close(lock);
      return;
    }
  node_path(node, sizeof node);
  snprintf(cli, sizeof cli, "%s/dist/cli.cjs", root);
  snprintf(path, sizeof path, "%s/%s.log", dir, hash);
  pid_t pid = fork();
  if (pid == 0)
    {
      /* A new session, then a second fork: the daemon is no child of ours nor of the agent's, and
       * no terminal's signals reach it. */
      if (setsid() < 0 || fork() != 0)
        _exit(0);
      int null = open("/dev/null", O_RDWR);
      int log = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
      if (null < 0 || chdir("/") < 0 || dup2(null, 0) < 0 || dup2(log < 0 ? null : log, 1) < 0 ||
          dup2(log < 0 ? null : log, 2) < 0 || dup2(lock, 3) < 0)
        _exit(127);
      closefrom(4);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, NULL);
      signal(SIGPIPE, SIG_DFL);
      char *args[] = { node, cli, "daemon", "--lock-fd", "3", NULL };
      execvp(node, args);
      _exit(127);
    }
  if (pid > 0)
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
      ;
  close(lock);
}

/* ── talking to it ──────────────────────────────────────────────────────── */

struct buf
{
  char *p;
  size_t len, cap;
};

static void
put(struct buf *b, const void *data, size_t len)
{
  if (b->len + len > b->cap)
    {
      size_t cap = b->cap ? b->cap : 4096;
      while (cap < b->len + len)
        cap *= 2;
      char *p = realloc(b->p, cap);
      if (p == NULL)
        die_client("out of memory");
      b->p = p;
      b->cap = cap;
    }
  memcpy(b->p + b->len, data, len);
  b->len += len;
}

static void
put_field(struct buf *b, const char *s)
{
  put(b, s, strlen(s) + 1);
}

/* Appends a frame to b. */
static void
put_frame(struct buf *b, char type, const void *data, size_t len)
{
  unsigned char head[5];
  uint32_t n = (uint32_t)len + 1;
  head[0] = n & 0xff, head[1] = (n >> 8) & 0xff, head[2] = (n >> 16) & 0xff, head[3] = n >> 24;
  head[4] = (unsigned char)type;
  put(b, head, sizeof head);
  put(b, data, len);
}

/* A frame in one write. */
static int
send_frame(int fd, char type, const void *data, size_t len)
{
  struct buf b = { 0 };
  put_frame(&b, type, data, len);
  int r = write_waiting(fd, b.p, b.len);
  free(b.p);
  return r;
}

/* The next frame from fd into *b (type in *type, payload b->p[0..*len)); 0 at a clean EOF, -1 on error. */
static int
read_frame(int fd, struct buf *b, char *type, size_t *len)
{
  unsigned char head[5];
  size_t got = 0;
  while (got < sizeof head)
    {
      ssize_t n = read(fd, head + got, sizeof head - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return got == 0 && n == 0 ? 0 : -1;
      got += (size_t)n;
    }
  uint32_t size = head[0] | head[1] << 8 | head[2] << 16 | (uint32_t)head[3] << 24;
  if (size == 0 || size > MAX_FRAME)
    return -1;
  *type = (char)head[4];
  *len = size - 1;
  b->len = 0;
  if (*len > b->cap)
    {
      char *p = realloc(b->p, *len);
      if (p == NULL)
        return -1;
      b->p = p;
      b->cap = *len;
    }
  for (got = 0; got < *len;)
    {
      ssize_t n = read(fd, b->p + got, *len - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      got += (size_t)n;
    }
  return 1;
}

/* A socket to the resident sbx of this install, or -1. */
static int
connect_server(const char *sock, uid_t uid)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen(sock) >= sizeof addr.sun_path)
    return -1;
  strcpy(addr.sun_path, sock);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
    {
      close(fd);
      return -1;
    }
  /* Only a server of our own uid gets our environment and input. */
  struct ucred cred;
  socklen_t n = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &n) < 0 || cred.uid != uid)
    {
      close(fd);
      return -1;
    }
  return fd;
}

static int
read_key(const char *path, char *key, size_t size)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return -1;
  ssize_t n = read(fd, key, size - 1);
  close(fd);
  if (n <= 0)
    return -1;
  key[n] = '\0';
  key[strcspn(key, "\n")] = '\0';
  return key[0] ? 0 : -1;
}

/* The calls the resident sbx runs: a hook, or `run` or `host` without --help (help is Node's to print). */
static int
served(int argc, char **argv)
{
  static const char *hooks[] = { "claude-pre", "claude-post", "codex-pre", "codex-post", "gemini-pre", "gemini-post" };
  if (argc == 3 && strcmp(argv[1], "hook") == 0)
    for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++)
      if (strcmp(argv[2], hooks[i]) == 0)
        {
          /* A hook must never block the agent's tool call: it exits 0 whatever happens. */
          die_as(CLIENT_PREFIX, 0);
          return is_hook = 1;
        }
  if (argc < 2 || (strcmp(argv[1], "run") != 0 && strcmp(argv[1], "host") != 0))
    return 0;
  for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      return 0;
  /* `sbx run -- patch -p1 < fix.patch`: the command reads that file (src/launcher/launch.ts), which the
   * resident sbx has no descriptor of: Node runs the call. */
  struct stat st;
  if (strcmp(argv[1], "run") == 0 && fstat(0, &st) == 0 && S_ISREG(st.st_mode))
    return 0;
  return 1;
}

static void
read_stdin(struct buf *in)
{
  char chunk[65536];
  while (in->len < MAX_STDIN)
    {
      ssize_t n = read(0, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        {
          struct pollfd r = { .fd = 0, .events = POLLIN };
          poll(&r, 1, -1);
          continue;
        }
      if (n <= 0)
        break;
      put(in, chunk, (size_t)n);
    }
}

static void
header(struct buf *h, const char *key, int argc, char **argv)
{
  char num[32], cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) == NULL)
    die_client("cannot read the current directory");
  put_field(h, PROTO);
  put_field(h, key);
  put_field(h, cwd);
  mode_t mask = umask(0);
  umask(mask);
  snprintf(num, sizeof num, "%o", (unsigned)mask);
  put_field(h, num);
  gid_t groups[NGROUPS_MAX + 1];
  int ng = getgroups(NGROUPS_MAX, groups);
  struct buf g = { 0 };
  snprintf(num, sizeof num, "%u", (unsigned)getegid());
  put(&g, num, strlen(num));
  for (int i = 0; i < ng; i++)
    {
      snprintf(num, sizeof num, ",%u", (unsigned)groups[i]);
      put(&g, num, strlen(num));
    }
  put(&g, "", 1);
  put(h, g.p, g.len);
  free(g.p);
  /* The cgroup this call runs in: a run with --memory makes its limit under it (src/launcher/cgroup.ts),
   * so the server takes such a run only when it is in the same one. */
  char cg[4096];
  int cfd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
  ssize_t cn = cfd < 0 ? -1 : read(cfd, cg, sizeof cg - 1);
  if (cfd >= 0)
    close(cfd);
  cg[cn > 0 ? cn : 0] = '\0';
  put_field(h, cg);
  snprintf(num, sizeof num, "%d", argc - 1);
  put_field(h, num);
  for (int i = 1; i < argc; i++)
    put_field(h, argv[i]);
  for (char **e = environ; *e; e++)
    put_field(h, *e);
}

int
main(int argc, char **argv)
{
  char dir[PATH_MAX], hash[17], sock[PATH_MAX + 32], keyfile[PATH_MAX + 32], key[256];
  die_as(CLIENT_PREFIX, EXIT_INTERNAL);
  if (find_root() < 0)
    die_client("cannot tell where this sbx is installed (/proc/self/exe)");
  const char *mode = getenv("SBX_RESIDENT");
  if (!served(argc, argv) || (mode && strcmp(mode, "0") == 0))
    exec_node(argv, argc, NULL, 0);
  required = mode && strcmp(mode, "require") == 0;
  install_hash(hash);
  if (socket_dir(dir, sizeof dir) < 0)
    fall_back("no private directory for its socket", argv, argc, NULL, 0);
  snprintf(sock, sizeof sock, "%s/%s.sock", dir, hash);
  snprintf(keyfile, sizeof keyfile, "%s/%s.key", dir, hash);
  int fd = read_key(keyfile, key, sizeof key) < 0 ? -1 : connect_server(sock, getuid());
  if (fd < 0)
    {
      start_server(dir, hash);
      fall_back("none was running (one is starting)", argv, argc, NULL, 0);
    }
  /* From here a closed socket is an error to read, not a signal to die of. */
  signal(SIGPIPE, SIG_IGN);
  struct buf in = { 0 }, h = { 0 }, f = { 0 };
  if (is_hook)
    read_stdin(&in);
  header(&h, key, argc, argv);
  /* The request in one write, one wake-up of the server (it was one per frame and part of one). */
  struct buf req = { 0 };
  put_frame(&req, 'H', h.p, h.len);
  for (size_t off = 0; off < in.len; off += 65536)
    put_frame(&req, 'I', in.p + off, in.len - off < 65536 ? in.len - off : 65536);
  put_frame(&req, 'E', "", 0);
  int sent = write_waiting(fd, req.p, req.len) == 0;
  free(req.p);
  char type = 0;
  size_t len = 0;
  if (!sent || read_frame(fd, &f, &type, &len) <= 0 || type != 'A')
    {
      /* Declined (another protocol, an environment it cannot take on, an upgraded install) or gone:
       * Node runs this call. A server that asks for it is replaced for the next one. */
      close(fd);
      char why[512] = "it went away";
      if (type == 'F' && len > 0)
        snprintf(why, sizeof why, "%.*s", (int)(len < 500 ? len : 500), f.p);
      if (type == 'F' && len >= 7 && memcmp(f.p, "restart", 7) == 0)
        start_server(dir, hash);
      fall_back(why, argv, argc, is_hook ? in.p ? in.p : "" : NULL, in.len);
    }
  free(in.p);

  /* Ctrl-C and friends are the command's: the first is passed on (the run is stopped and recorded),
   * a second one ends this process at once, as it ends `sbx run`. */
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGHUP);
  sigprocmask(SIG_BLOCK, &sigs, NULL);
  int sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
  if (sfd < 0)
    die_client("signalfd");
  int out_ok[3] = { 1, 1, 1 }, signals = 0;
  for (;;)
    {
      struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = sfd, .events = POLLIN } };
      if (poll(p, 2, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          die_client("poll");
        }
      if (p[1].revents & POLLIN)
        {
          struct signalfd_siginfo si;
          if (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
            {
              int sig = (int)si.ssi_signo;
              if (++signals > 1)
                exit(128 + sig);
              const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
              send_frame(fd, 'S', name, strlen(name));
            }
        }
      if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      int r = read_frame(fd, &f, &type, &len);
      if (r <= 0)
        {
          errno = 0;
          if (is_hook)
            {
              fputs("sbx hook: the resident sbx went away during the call; the tool call goes on unchanged\n", stderr);
              exit(0);
            }
          die_client(
              "the resident sbx went away during the command; its log may hold the output (sbx daemon --status)");
        }
      if (type == 'O' || type == 'R')
        {
          int out = type == 'O' ? 1 : 2;
          /* A reader that went away (`sbx run ... | head`) gets nothing more, and the run goes on. */
          if (out_ok[out] && write_waiting(out, f.p, len) < 0)
            out_ok[out] = 0;
        }
      else if (type == 'X')
        {
          char code[16];
          size_t n = len < sizeof code - 1 ? len : sizeof code - 1;
          memcpy(code, f.p, n);
          code[n] = '\0';
          exit(atoi(code) & 0xff);
        }
    }
}
