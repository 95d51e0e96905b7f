/* sbx-launch --walk: one pass over the work tree for the two things the host
 * asks of it around a run (src/host/tree-walk.ts): the fingerprint of the
 * files the user edits, and where the control entries are (.git, .claude, ...
 * at any depth, ignored directories included). In C because a walk in
 * JavaScript costs ~10 us a file (an lstat each through libuv, a string and a
 * Dirent object each); here it is a getdents64 per directory and an fstatat
 * per file counted, relative to its directory's descriptor.
 *
 *   sbx-launch --walk WORK [--files walk|list|none] [--max N]
 *       [--skip-dir NAME]... [--top-skip-dir NAME]...
 *       [--control NAME]... [--repo-mark NAME]... [--not-into REL]
 *
 * --files walk: the files of the walk count (not under a --skip-dir at any
 * depth, nor a --top-skip-dir at the top); list: the NUL-separated paths on
 * stdin count (git's list), less those under such a directory; none: no
 * fingerprint. Each file counts by path, mode, size and mtime (lstat), in
 * byte order of the paths: sha256 of "rel\0mode:size:mtime_ns\0"... -- the
 * digest src/host/state/fingerprint.ts computes. Past --max files (walk) the
 * fingerprint is unknown, never the fingerprint of a part.
 *
 * The control walk looks into every directory but a --control entry, a
 * directory holding every --repo-mark (git takes it for a repository) and
 * --not-into (the state dir); a directory of the caller's it cannot list gets
 * u+rx back first (a run may chmod 000 one to hide a .git in it).
 *
 * Out, on stdout, NUL-terminated records:
 *   F<32 hex digits>  the fingerprint, or F- when unknown
 *   N<files> D<dirs>  what was counted and listed
 *   C<e|b><0|1><dev>:<ino>/<rel>  a control entry: e a --control name, b a
 *                     repository-like directory; 1 when it is a symlink
 * Which names mean what is the caller's policy: this file knows none. */
#define _GNU_SOURCE
#include "walk.h"
#include "sha256.h"
#include "util.h"
#include <dirent.h>
#include <sys/syscall.h>

#define MAX_NAMES 64
/* A longer path cannot be opened in one call (ENAMETOOLONG), as the walk in
 * JavaScript could not list it either: such an entry is passed over, as before. */
#define REL_MAX (PATH_MAX - 1)

enum files_mode
{
  FILES_NONE,
  FILES_WALK,
  FILES_LIST
};
enum
{
  IN_FP = 1,  /* its files count for the fingerprint */
  IN_CTL = 2, /* the control walk looks inside */
};

struct names
{
  const char *v[MAX_NAMES];
  size_t len[MAX_NAMES];
  int n;
};

struct buf
{
  char *p;
  size_t len, cap;
};

struct dir_item
{
  char *rel;
  int flags;
};

static struct
{
  int workfd;
  enum files_mode files;
  long max;
  struct names skip, top_skip, control, marks;
  const char *not_into;
  /* what the walk collected */
  struct buf records; /* "rel\0stat\0" one after another */
  size_t *offs;       /* where each record starts */
  size_t noffs, cap_offs;
  long files_counted, dirs_listed;
  int over;
} W;

static void
add_name(struct names *s, const char *name, const char *flag)
{
  if (s->n == MAX_NAMES)
    die("--walk: more than %d %s", MAX_NAMES, flag);
  s->v[s->n] = name;
  s->len[s->n++] = strlen(name);
}

static int
has_name(const struct names *s, const char *p, size_t n)
{
  for (int i = 0; i < s->n; i++)
    if (s->len[i] == n && memcmp(s->v[i], p, n) == 0)
      return 1;
  return 0;
}

/* Room for n more bytes. */
static void
buf_reserve(struct buf *b, size_t n)
{
  b->p = xgrow(b->p, &b->cap, b->len + n, 1, 1 << 16);
}

static void
buf_add(struct buf *b, const void *data, size_t n)
{
  buf_reserve(b, n);
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

static void
push_off(size_t off)
{
  W.offs = xgrow(W.offs, &W.cap_offs, W.noffs + 1, sizeof *W.offs, 4096);
  W.offs[W.noffs++] = off;
}

/* n in decimal at out; returns the digits' count. */
static size_t
put_dec(char *out, unsigned long long n)
{
  char t[24];
  size_t k = 0, i;
  do
    t[k++] = (char)('0' + n % 10);
  while ((n /= 10) != 0);
  for (i = 0; i < k; i++)
    out[i] = t[k - 1 - i];
  return k;
}

/* "mode:size:mtime_ns", as the TypeScript side writes a bigint lstat (no printf: a walk formats one a file). */
static size_t
stat_text(char *out, const struct stat *st)
{
  long long ns = (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
  size_t k = put_dec(out, (unsigned)st->st_mode);
  out[k++] = ':';
  if (st->st_size < 0)
    out[k++] = '-';
  k += put_dec(out + k, st->st_size < 0 ? -(unsigned long long)st->st_size : (unsigned long long)st->st_size);
  out[k++] = ':';
  if (ns < 0)
    out[k++] = '-';
  k += put_dec(out + k, ns < 0 ? -(unsigned long long)ns : (unsigned long long)ns);
  return k;
}

static void
add_record(const char *rel, size_t rel_len, const struct stat *st)
{
  char *at;
  push_off(W.records.len);
  buf_reserve(&W.records, rel_len + 1 + 96);
  at = W.records.p + W.records.len;
  memcpy(at, rel, rel_len + 1); /* with its NUL */
  at += rel_len + 1;
  at += stat_text(at, st);
  *at++ = 0;
  W.records.len = (size_t)(at - W.records.p);
}

static int
by_path(const void *a, const void *b)
{
  return strcmp(W.records.p + *(const size_t *)a, W.records.p + *(const size_t *)b);
}

/* The digest of the records in path order, its first 32 hex digits in out. */
static void
fingerprint(char out[33])
{
  struct sha256 h;
  char hex[65];

  qsort(W.offs, W.noffs, sizeof *W.offs, by_path);
  sha256_init(&h);
  for (size_t i = 0; i < W.noffs; i++)
    {
      const char *r = W.records.p + W.offs[i];
      size_t a = strlen(r) + 1;
      size_t b = strlen(r + a) + 1;
      sha256_update(&h, r, a + b);
    }
  sha256_hex(&h, hex);
  memcpy(out, hex, 32);
  out[32] = 0;
}

static void put_record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void
put_record(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar(0);
}

static int
open_dir(const char *rel)
{
  return openat(W.workfd, *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* A directory of the caller's the run made unlistable: u+rx back, then list it. */
static int
reopen(const char *rel)
{
  struct stat st;
  const char *p = *rel ? rel : ".";
  if (fstatat(W.workfd, p, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
    return -1;
  if (fchmodat(W.workfd, p, (st.st_mode & 07777) | 0500, 0) != 0)
    return -1;
  return open_dir(rel);
}

static void
emit_control(char kind, const struct stat *st, const char *rel)
{
  put_record("C%c%c%llu:%llu/%s", kind, S_ISLNK(st->st_mode) ? '1' : '0', (unsigned long long)st->st_dev,
             (unsigned long long)st->st_ino, rel);
}

/* getdents64's record (not in glibc's headers). */
struct dirent64_rec
{
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* One directory's entries: names one after another, each after its d_type. getdents64 straight into
 * one 256 KiB buffer (no DIR, no dup of the descriptor: fewer calls a directory than readdir). */
static int
read_entries(int dfd, struct buf *names)
{
  static char dents[256 << 10] __attribute__((aligned(8)));
  names->len = 0;
  for (;;)
    {
      long got = syscall(SYS_getdents64, dfd, dents, sizeof dents);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          close(dfd);
          return -1;
        }
      if (got == 0)
        return dfd;
      for (long at = 0; at < got;)
        {
          const struct dirent64_rec *e = (const struct dirent64_rec *)(dents + at);
          const char *nm = e->d_name;
          at += e->d_reclen;
          if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
            continue;
          size_t k = strlen(nm) + 1;
          if (names->len + k + 1 > names->cap)
            buf_reserve(names, k + 1);
          names->p[names->len] = (char)e->d_type;
          memcpy(names->p + names->len + 1, nm, k);
          names->len += k + 1;
        }
    }
}

static void
walk(int ctl_on)
{
  struct dir_item *stack = NULL;
  size_t n = 0, cap = 0;
  struct buf names = { 0 };
  char child[PATH_MAX];

#define PUSH(r, f)                                                                                                     \
  (stack = xgrow(stack, &cap, n + 1, sizeof *stack, 256), stack[n].rel = xstrdup(r), stack[n++].flags = (f))

  PUSH("", (W.files == FILES_WALK ? IN_FP : 0) | (ctl_on ? IN_CTL : 0));
  while (n)
    {
      struct dir_item it = stack[--n];
      const char *rel = it.rel;
      size_t rel_len = strlen(rel);
      int dfd = open_dir(rel);
      if (dfd < 0 && errno == EACCES && (it.flags & IN_CTL))
        dfd = reopen(rel);
      if (dfd >= 0)
        dfd = read_entries(dfd, &names);
      if (dfd < 0)
        {
          free(it.rel);
          continue;
        }
      W.dirs_listed++;
      memcpy(child, rel, rel_len); /* each entry's path is rel/name: the prefix is put once */
      int ctl = it.flags & IN_CTL;
      if (ctl && rel_len && W.marks.n)
        {
          int all = 1;
          for (int m = 0; m < W.marks.n && all; m++)
            {
              int found = 0;
              for (size_t at = 0; at < names.len && !found;)
                {
                  const char *nm = names.p + at + 1;
                  size_t k = strlen(nm);
                  found = k == W.marks.len[m] && memcmp(nm, W.marks.v[m], k) == 0;
                  at += k + 2;
                }
              all = found;
            }
          if (all)
            {
              struct stat st;
              if (fstat(dfd, &st) == 0)
                emit_control('b', &st, rel);
              ctl = 0;
            }
        }
      for (size_t at = 0; at < names.len;)
        {
          unsigned char type = (unsigned char)names.p[at];
          const char *name = names.p + at + 1;
          size_t name_len = strlen(name);
          struct stat st;
          int have = 0;
          at += name_len + 2;
          if (rel_len + 1 + name_len > REL_MAX)
            continue;
          size_t child_len = rel_len ? rel_len + 1 + name_len : name_len;
          if (rel_len)
            child[rel_len] = '/';
          memcpy(child + (rel_len ? rel_len + 1 : 0), name, name_len + 1);
          int not_into = W.not_into && strcmp(child, W.not_into) == 0;
          int child_ctl = 0, child_fp = 0;
          /* A control entry is reported, and the control walk does not look inside it. */
          if (ctl && has_name(&W.control, name, name_len) && !not_into &&
              fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            {
              have = 1;
              emit_control('e', &st, child);
            }
          if (type == DT_UNKNOWN)
            {
              if (!have && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
              have = 1;
              type = IFTODT(st.st_mode);
            }
          if (type == DT_DIR)
            {
              child_ctl = ctl && !not_into && !has_name(&W.control, name, name_len);
              child_fp = (it.flags & IN_FP) && !has_name(&W.skip, name, name_len) &&
                         !(rel_len == 0 && has_name(&W.top_skip, name, name_len));
              if (child_ctl || child_fp)
                PUSH(child, (child_fp ? IN_FP : 0) | (child_ctl ? IN_CTL : 0));
            }
          else if (it.flags & IN_FP)
            {
              if (W.over)
                continue;
              if (W.files_counted >= W.max)
                {
                  W.over = 1;
                  continue;
                }
              if (!have && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
              if (S_ISDIR(st.st_mode))
                continue;
              add_record(child, child_len, &st);
              W.files_counted++;
            }
        }
      close(dfd);
      free(it.rel);
    }
#undef PUSH
  free(stack);
  free(names.p);
}

/* A listed path that counts: inside, no "..", not under a skipped directory. */
static int
included(const char *rel)
{
  const char *p = rel;
  int top = 1;
  if (!*rel || *rel == '/')
    return 0;
  for (;;)
    {
      const char *slash = strchr(p, '/');
      size_t k = slash ? (size_t)(slash - p) : strlen(p);
      if (k == 2 && p[0] == '.' && p[1] == '.')
        return 0;
      if (!slash)
        return 1;
      if ((top && has_name(&W.top_skip, p, k)) || has_name(&W.skip, p, k))
        return 0;
      top = 0;
      p = slash + 1;
    }
}

/* The paths on stdin (NUL-separated), each lstat'ed relative to its directory's descriptor. */
static void
stat_list(void)
{
  struct buf in = { 0 };
  char chunk[1 << 16], dir[PATH_MAX];
  ssize_t k;
  int dfd = -1;
  size_t dir_len = (size_t)-1;

  while ((k = TEMP_FAILURE_RETRY(read(0, chunk, sizeof chunk))) != 0)
    {
      if (k < 0)
        die_with_error("--walk: reading the file list");
      buf_add(&in, chunk, (size_t)k);
    }
  buf_add(&in, "", 1);
  for (size_t at = 0; at + 1 < in.len;)
    {
      const char *rel = in.p + at;
      size_t len = strlen(rel);
      at += len + 1;
      if (!included(rel))
        continue;
      const char *slash = strrchr(rel, '/');
      size_t dl = slash ? (size_t)(slash - rel) : 0;
      if (dl >= sizeof dir)
        continue;
      if (dl != dir_len || memcmp(dir, rel, dl) != 0)
        {
          if (dfd >= 0 && dfd != W.workfd)
            close(dfd);
          memcpy(dir, rel, dl);
          dir[dl] = 0;
          dir_len = dl;
          /* Following links on the way, as an lstat of the whole path does. */
          dfd = dl ? openat(W.workfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC) : W.workfd;
        }
      struct stat st;
      if (dfd < 0 || fstatat(dfd, slash ? slash + 1 : rel, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
        continue; /* gone, or a nested repository git lists as one entry */
      add_record(rel, len, &st);
      W.files_counted++;
    }
  if (dfd >= 0 && dfd != W.workfd)
    close(dfd);
  free(in.p);
}

int
walk_main(int argc, char **argv)
{
  const char *work;
  long max = LONG_MAX;
  static char out_buf[1 << 16];
  int i;

  if (argc < 2)
    die("--walk: usage: sbx-launch --walk WORK [--files walk|list|none] [--max N] [--skip-dir NAME]... "
        "[--top-skip-dir NAME]... [--control NAME]... [--repo-mark NAME]... [--not-into REL]");
  work = argv[1];
  W.files = FILES_NONE;
  for (i = 2; i < argc; i++)
    {
      const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!v)
        die("--walk: %s needs a value", f);
      i++;
      if (strcmp(f, "--files") == 0)
        {
          if (strcmp(v, "walk") == 0)
            W.files = FILES_WALK;
          else if (strcmp(v, "list") == 0)
            W.files = FILES_LIST;
          else if (strcmp(v, "none") == 0)
            W.files = FILES_NONE;
          else
            die("--walk: --files %s: not walk, list or none", v);
        }
      else if (strcmp(f, "--max") == 0)
        {
          if (parse_long(v, 0, LONG_MAX, &max) != 0)
            die("--walk: --max %s: not a count", v);
        }
      else if (strcmp(f, "--skip-dir") == 0)
        add_name(&W.skip, v, f);
      else if (strcmp(f, "--top-skip-dir") == 0)
        add_name(&W.top_skip, v, f);
      else if (strcmp(f, "--control") == 0)
        add_name(&W.control, v, f);
      else if (strcmp(f, "--repo-mark") == 0)
        add_name(&W.marks, v, f);
      else if (strcmp(f, "--not-into") == 0)
        W.not_into = v;
      else
        die("--walk: unknown flag %s", f);
    }
  W.max = max;
  W.workfd = open(work, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (W.workfd < 0)
    die_with_error("--walk: %s", work);
  setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);

  if (W.files == FILES_LIST)
    stat_list();
  if (W.files == FILES_WALK || W.control.n)
    walk(W.control.n > 0);
  if (W.files != FILES_NONE)
    {
      char fp[33];
      if (W.over)
        put_record("F-");
      else
        {
          fingerprint(fp);
          put_record("F%s", fp);
        }
    }
  put_record("N%ld", W.files_counted);
  put_record("D%ld", W.dirs_listed);
  if (fflush(stdout) != 0)
    die_with_error("--walk: writing");
  return 0;
}
