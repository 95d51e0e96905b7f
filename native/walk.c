/* sbx-launch --walk: one pass over the work tree for the two things the host
 * asks of it around a run (src/host/tree-walk.ts): the fingerprint of the
 * files the user edits, and where the control entries are (.git, .claude, ...
 * at any depth, ignored directories included). In C because a walk in
 * JavaScript costs ~10 us a file (an lstat each through libuv, a string and a
 * Dirent object each); here it is a getdents64 per directory and an fstatat
 * per file counted, relative to its directory's descriptor.
 *
 *   sbx-launch --walk WORK [--files walk|list|none] [--max N] [--threads N]
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
 * What is left of a file's cost is the kernel's lookup and getattr, so, as
 * git's core.preloadIndex, a big walk shares it among threads: past PAR_MIN
 * entries, up to MAX_THREADS list directories off one queue and lstat files
 * (a big directory's in shares, a list in runs). --threads N: that many
 * (1: none); by default the CPUs this process may use less the load. The
 * output is the same bytes whatever the scheduling: each thread sorts its
 * records, the digest merges them, and the control records are written in
 * the order of one thread's depth-first walk. --walk is a process of its own:
 * its threads are gone before any other mode (namespaces) could run.
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
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>

#define MAX_NAMES 64
/* A longer path cannot be opened in one call (ENAMETOOLONG), as the walk in
 * JavaScript could not list it either: such an entry is passed over, as before. */
#define REL_MAX (PATH_MAX - 1)
/* Threads: at most this many (git's preloadIndex goes to 20 on big machines;
 * past 4 the kernel's lookups of one tree gain little), and only once the walk
 * has met this many entries (or the list holds them): a small tree stays on one
 * thread, where starting others costs more than they save. */
#define MAX_THREADS 4
#define PAR_MIN 2000
/* A thread adds its count to the shared one every this many files: not a shared cache line a file. */
#define COUNT_BATCH 256
/* A directory with more files than twice this many gives the others shares of this many to lstat. */
#define STAT_BATCH 512
#define DENTS_SIZE (256 << 10)
/* A name's d_type byte once it waits for the second pass (d_type is at most 14). */
#define TO_STAT 0xff

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

/* A directory to list. The control records it finds and the directories it
 * pushes stay with it, so that they are written in the order one thread
 * walking depth first would meet them, whichever thread listed it. */
struct node
{
  char *rel;
  int flags;
  struct buf ctl; /* its "C..." records, each NUL-terminated */
  struct node **kids;
  size_t nkids, cap_kids;
  /* Or a share of a big directory's files to lstat, from its names (its own descriptor on the directory). */
  char *batch;
  size_t batch_len;
  int batch_fd;
};

/* One thread's part: what it counted, and its records ("rel\0stat\0"). */
struct worker
{
  pthread_t tid;
  struct buf records;
  size_t *offs; /* where each record starts */
  size_t noffs, cap_offs;
  const char **sorted; /* the records in path order, once it is done */
  long dirs_listed;
  long counted, unpublished;
  char *dents;
  struct buf names;
  const char *list_from, *list_to; /* --files list: its share of the paths */
};

static struct
{
  int workfd;
  enum files_mode files;
  long max;
  long threads; /* at most; 0: as many CPUs as the walk may use, up to MAX_THREADS */
  struct names skip, top_skip, control, marks;
  const char *not_into;
  long published; /* files the threads counted, told every COUNT_BATCH files (atomic) */
  int over;       /* atomic */
  struct worker workers[MAX_THREADS];
  int nworkers;
} W;

/* The queue of directories to list, shared by the threads. */
static struct
{
  pthread_mutex_t mu;
  pthread_cond_t cv;
  struct node **v;
  size_t n, cap;
  int busy;     /* threads listing a directory */
  int waiting;  /* threads waiting for one */
  int started;  /* the others (or it is known that none will) */
  int parallel; /* more than one thread: written before the others start */
  long entries; /* met by the first thread before the others start */
} Q = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

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
add_record(struct worker *w, const char *rel, size_t rel_len, const struct stat *st)
{
  char *at;
  w->offs = xgrow(w->offs, &w->cap_offs, w->noffs + 1, sizeof *w->offs, 4096);
  w->offs[w->noffs++] = w->records.len;
  buf_reserve(&w->records, rel_len + 1 + 96);
  at = w->records.p + w->records.len;
  memcpy(at, rel, rel_len + 1); /* with its NUL */
  at += rel_len + 1;
  at += stat_text(at, st);
  *at++ = 0;
  w->records.len = (size_t)(at - w->records.p);
}

/* A file that counts, past --max none does (the fingerprint is then unknown). 1 when it is to be stat'ed. */
static int
room_for_file(const struct worker *w)
{
  if (__atomic_load_n(&W.over, __ATOMIC_RELAXED))
    return 0;
  if (__atomic_load_n(&W.published, __ATOMIC_RELAXED) + w->unpublished >= W.max)
    {
      __atomic_store_n(&W.over, 1, __ATOMIC_RELAXED);
      return 0;
    }
  return 1;
}

static void
count_file(struct worker *w, const char *rel, size_t rel_len, const struct stat *st)
{
  add_record(w, rel, rel_len, st);
  w->counted++;
  if (++w->unpublished == COUNT_BATCH)
    {
      __atomic_fetch_add(&W.published, w->unpublished, __ATOMIC_RELAXED);
      w->unpublished = 0;
    }
}

static int
by_path(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A thread's records in path order (each thread sorts its own, in parallel; the digest merges them). */
static void
sort_records(struct worker *w)
{
  free(w->sorted);
  w->sorted = xmalloc((w->noffs + 1) * sizeof *w->sorted);
  for (size_t i = 0; i < w->noffs; i++)
    w->sorted[i] = w->records.p + w->offs[i];
  qsort(w->sorted, w->noffs, sizeof *w->sorted, by_path);
}

/* The digest of every thread's records in path order, its first 32 hex digits in out. */
static void
fingerprint(char out[33])
{
  struct sha256 h;
  char hex[65];
  size_t at[MAX_THREADS] = { 0 };

  sha256_init(&h);
  for (;;)
    {
      int min = -1;
      for (int i = 0; i < MAX_THREADS; i++) /* the list's threads and the walk's */
        if (at[i] < W.workers[i].noffs &&
            (min < 0 || strcmp(W.workers[i].sorted[at[i]], W.workers[min].sorted[at[min]]) < 0))
          min = i;
      if (min < 0)
        break;
      const char *r = W.workers[min].sorted[at[min]++];
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

/* A control record, kept with the directory it is in until the walk is over. */
static void
add_control(struct node *d, char kind, const struct stat *st, const char *rel)
{
  char rec[64 + PATH_MAX];
  int k = snprintf(rec, sizeof rec, "C%c%c%llu:%llu/%s", kind, S_ISLNK(st->st_mode) ? '1' : '0',
                   (unsigned long long)st->st_dev, (unsigned long long)st->st_ino, rel);
  if (k > 0 && (size_t)k < sizeof rec)
    buf_add(&d->ctl, rec, (size_t)k + 1);
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
read_entries(struct worker *w, int dfd)
{
  struct buf *names = &w->names;
  names->len = 0;
  for (;;)
    {
      long got = syscall(SYS_getdents64, dfd, w->dents, DENTS_SIZE);
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
          const struct dirent64_rec *e = (const struct dirent64_rec *)(w->dents + at);
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

static void *run_worker(void *arg);

/* How many threads a big walk takes: --threads, or the CPUs this process may run on less those the
 * last minute's load kept busy (a thread more on a busy machine gets no CPU of its own: it only adds
 * the cost of sharing), at least 1, at most MAX_THREADS. */
static int
threads_wanted(void)
{
  long want = W.threads;
  if (want == 0)
    {
      cpu_set_t cpus;
      double load;
      want = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
      if (getloadavg(&load, 1) == 1)
        want -= (long)(load + 0.5);
    }
  return want > MAX_THREADS ? MAX_THREADS : want < 1 ? 1 : (int)want;
}

/* The others, once the first thread has met PAR_MIN entries and there is more to list. */
static void
start_threads(void)
{
  int want = threads_wanted();
  Q.parallel = want > 1;
  while (W.nworkers < want)
    {
      struct worker *w = &W.workers[W.nworkers];
      w->dents = xmalloc(DENTS_SIZE);
      if (pthread_create(&w->tid, NULL, run_worker, w) != 0)
        {
          free(w->dents);
          break; /* fewer threads, the same walk */
        }
      W.nworkers++;
    }
}

/* Its subdirectories and shares of its files, for any thread. */
static void
push_work(struct node *d, struct node **batches, size_t nbatches)
{
  if (!d->nkids && !nbatches)
    return;
  pthread_mutex_lock(&Q.mu);
  Q.v = xgrow(Q.v, &Q.cap, Q.n + d->nkids + nbatches, sizeof *Q.v, 256);
  memcpy(Q.v + Q.n, d->kids, d->nkids * sizeof *Q.v);
  Q.n += d->nkids;
  memcpy(Q.v + Q.n, batches, nbatches * sizeof *Q.v);
  Q.n += nbatches;
  if (Q.waiting)
    pthread_cond_broadcast(&Q.cv);
  pthread_mutex_unlock(&Q.mu);
}

/* rel/name (or name at the top) into child, which holds rel already; its length, 0 when too long. */
static size_t
child_path(char *child, size_t rel_len, const char *name, size_t name_len)
{
  if (rel_len + 1 + name_len > REL_MAX)
    return 0;
  if (rel_len)
    child[rel_len] = '/';
  memcpy(child + (rel_len ? rel_len + 1 : 0), name, name_len + 1);
  return rel_len ? rel_len + 1 + name_len : name_len;
}

/* The names (each after its d_type byte) marked TO_STAT, lstat'ed in dfd; child holds the directory's path. */
static void
stat_names(struct worker *w, int dfd, char *child, size_t rel_len, const char *names, size_t len)
{
  for (size_t at = 0; at < len;)
    {
      unsigned char type = (unsigned char)names[at];
      const char *name = names + at + 1;
      size_t name_len = strlen(name);
      struct stat st;
      at += name_len + 2;
      if (type != TO_STAT)
        continue;
      if (!room_for_file(w))
        break;
      size_t child_len = child_path(child, rel_len, name, name_len);
      if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
        continue;
      count_file(w, child, child_len, &st);
    }
}

/* A share of a big directory's files. */
static void
stat_batch(struct worker *w, struct node *s)
{
  char child[PATH_MAX];
  size_t rel_len = strlen(s->rel);
  memcpy(child, s->rel, rel_len);
  stat_names(w, s->batch_fd, child, rel_len, s->batch, s->batch_len);
  close(s->batch_fd);
  free(s->batch);
  free(s->rel);
  free(s);
}

/* One directory: its control entries and subdirectories first (the subdirectories go to the queue for
 * any thread), then the lstat of each of its files that counts. */
static void
list_dir(struct worker *w, struct node *d)
{
  const char *rel = d->rel;
  size_t rel_len = strlen(rel);
  struct buf *names = &w->names;
  char child[PATH_MAX];
  int dfd = open_dir(rel);
  if (dfd < 0 && errno == EACCES && (d->flags & IN_CTL))
    dfd = reopen(rel);
  if (dfd >= 0)
    dfd = read_entries(w, dfd);
  if (dfd < 0)
    return;
  w->dirs_listed++;
  memcpy(child, rel, rel_len); /* each entry's path is rel/name: the prefix is put once */
  int ctl = d->flags & IN_CTL;
  if (ctl && rel_len && W.marks.n)
    {
      int all = 1;
      for (int m = 0; m < W.marks.n && all; m++)
        {
          int found = 0;
          for (size_t at = 0; at < names->len && !found;)
            {
              const char *nm = names->p + at + 1;
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
            add_control(d, 'b', &st, rel);
          ctl = 0;
        }
    }
  long entries = 0, to_stat = 0;
  for (size_t at = 0; at < names->len;)
    {
      unsigned char *type = (unsigned char *)names->p + at;
      const char *name = names->p + at + 1;
      size_t name_len = strlen(name);
      struct stat st;
      int have = 0;
      at += name_len + 2;
      entries++;
      size_t child_len = child_path(child, rel_len, name, name_len);
      if (!child_len)
        continue;
      int not_into = W.not_into && strcmp(child, W.not_into) == 0;
      /* A control entry is reported, and the control walk does not look inside it. */
      if (ctl && has_name(&W.control, name, name_len) && !not_into && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        {
          have = 1;
          add_control(d, 'e', &st, child);
        }
      if (*type == DT_UNKNOWN)
        {
          if (!have && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
          have = 1;
          *type = IFTODT(st.st_mode);
        }
      if (*type == DT_DIR)
        {
          int child_ctl = ctl && !not_into && !has_name(&W.control, name, name_len);
          int child_fp = (d->flags & IN_FP) && !has_name(&W.skip, name, name_len) &&
                         !(rel_len == 0 && has_name(&W.top_skip, name, name_len));
          if (child_ctl || child_fp)
            {
              struct node *k = xcalloc(1, sizeof *k);
              k->rel = xstrdup(child);
              k->flags = (child_fp ? IN_FP : 0) | (child_ctl ? IN_CTL : 0);
              d->kids = xgrow(d->kids, &d->cap_kids, d->nkids + 1, sizeof *d->kids, 8);
              d->kids[d->nkids++] = k;
            }
        }
      else if (d->flags & IN_FP)
        {
          if (!have)
            {
              *type = TO_STAT;
              to_stat++;
            }
          else if (room_for_file(w) && !S_ISDIR(st.st_mode))
            count_file(w, child, child_len, &st);
        }
    }
  /* Only the first thread runs until the others start: no lock for what it alone reads and writes. */
  if (w == &W.workers[0] && !Q.started)
    {
      Q.entries += entries;
      if (Q.entries >= PAR_MIN && W.threads != 1)
        {
          Q.started = 1;
          start_threads();
        }
    }
  /* A big directory: shares of its files for the others, the last for this one. */
  struct node **batches = NULL;
  size_t nbatches = 0, cap_batches = 0, own_from = 0;
  if (to_stat > 2 * STAT_BATCH && Q.parallel)
    for (size_t at = 0, n = 0; at < names->len && to_stat > 2 * STAT_BATCH;)
      {
        size_t next = at + strlen(names->p + at + 1) + 2;
        if ((unsigned char)names->p[at] == TO_STAT && ++n == STAT_BATCH)
          {
            struct node *s = xcalloc(1, sizeof *s);
            s->batch_fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
            if (s->batch_fd < 0)
              {
                free(s);
                break;
              }
            s->rel = xstrdup(rel);
            s->batch_len = next - own_from;
            s->batch = xmalloc(s->batch_len);
            memcpy(s->batch, names->p + own_from, s->batch_len);
            batches = xgrow(batches, &cap_batches, nbatches + 1, sizeof *batches, 16);
            batches[nbatches++] = s;
            own_from = next;
            to_stat -= n;
            n = 0;
          }
        at = next;
      }
  push_work(d, batches, nbatches);
  free(batches);
  if (to_stat)
    stat_names(w, dfd, child, rel_len, names->p + own_from, names->len - own_from);
  close(dfd);
}

/* A thread's loop (the first thread's too): list directories off the queue until none is left and no
 * thread is listing one (which could push more). */
static void *
run_worker(void *arg)
{
  struct worker *w = arg;
  pthread_mutex_lock(&Q.mu);
  for (;;)
    {
      while (Q.n == 0 && Q.busy > 0)
        {
          Q.waiting++;
          pthread_cond_wait(&Q.cv, &Q.mu);
          Q.waiting--;
        }
      if (Q.n == 0)
        break;
      struct node *d = Q.v[--Q.n];
      Q.busy++;
      pthread_mutex_unlock(&Q.mu);
      if (d->batch)
        stat_batch(w, d);
      else
        {
          list_dir(w, d);
          free(d->rel);
          d->rel = NULL;
        }
      pthread_mutex_lock(&Q.mu);
      if (--Q.busy == 0 && Q.n == 0)
        pthread_cond_broadcast(&Q.cv);
    }
  pthread_mutex_unlock(&Q.mu);
  sort_records(w);
  free(w->names.p);
  free(w->dents);
  return NULL;
}

/* The control records in the order of a depth-first walk on one thread (a directory, then what it
 * pushed, the last pushed first): the same output whatever thread listed what. */
static void
put_controls(struct node *top)
{
  struct node **stack = NULL;
  size_t n = 0, cap = 0;
  stack = xgrow(stack, &cap, 1, sizeof *stack, 256);
  stack[n++] = top;
  while (n)
    {
      struct node *d = stack[--n];
      for (size_t at = 0; at < d->ctl.len; at += strlen(d->ctl.p + at) + 1)
        put_record("%s", d->ctl.p + at);
      stack = xgrow(stack, &cap, n + d->nkids, sizeof *stack, 256);
      memcpy(stack + n, d->kids, d->nkids * sizeof *stack);
      n += d->nkids;
      free(d->ctl.p);
      free(d->kids);
      free(d);
    }
  free(stack);
}

static void
walk(int ctl_on)
{
  struct node *top = xcalloc(1, sizeof *top);
  top->rel = xstrdup("");
  top->flags = (W.files == FILES_WALK ? IN_FP : 0) | (ctl_on ? IN_CTL : 0);
  Q.v = xgrow(Q.v, &Q.cap, 1, sizeof *Q.v, 256);
  Q.v[Q.n++] = top;
  W.workers[0].dents = xmalloc(DENTS_SIZE);
  W.nworkers = 1;
  run_worker(&W.workers[0]);
  for (int i = 1; i < W.nworkers; i++)
    pthread_join(W.workers[i].tid, NULL);
  free(Q.v);
  put_controls(top);
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

/* Paths on stdin from one to another, each lstat'ed relative to its directory's descriptor. */
static void
stat_paths(struct worker *w, const char *from, const char *to)
{
  char dir[PATH_MAX];
  int dfd = -1;
  size_t dir_len = (size_t)-1;

  for (const char *rel = from; rel < to;)
    {
      size_t len = strlen(rel);
      const char *next = rel + len + 1;
      if (!included(rel))
        {
          rel = next;
          continue;
        }
      const char *slash = strrchr(rel, '/');
      size_t dl = slash ? (size_t)(slash - rel) : 0;
      if (dl >= sizeof dir)
        {
          rel = next;
          continue;
        }
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
      /* not when gone, nor a nested repository git lists as one entry */
      if (dfd >= 0 && fstatat(dfd, slash ? slash + 1 : rel, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
        count_file(w, rel, len, &st);
      rel = next;
    }
  if (dfd >= 0 && dfd != W.workfd)
    close(dfd);
}

/* A thread's share of the paths. */
static void *
run_list(void *arg)
{
  struct worker *w = arg;
  stat_paths(w, w->list_from, w->list_to);
  sort_records(w);
  return NULL;
}

/* The paths on stdin (NUL-separated): split in as many runs of paths as threads, the runs of a big
 * list lstat'ed in parallel. */
static void
stat_list(void)
{
  struct buf in_buf = { 0 }, *in = &in_buf;
  char chunk[1 << 16];
  ssize_t k;
  long paths = 0;
  int n = 1;

  while ((k = TEMP_FAILURE_RETRY(read(0, chunk, sizeof chunk))) != 0)
    {
      if (k < 0)
        die_with_error("--walk: reading the file list");
      buf_add(in, chunk, (size_t)k);
    }
  buf_add(in, "", 1);
  for (const char *p = in->p, *end = in->p + in->len - 1; p < end && paths < PAR_MIN; p = memchr(p, 0, end - p + 1) + 1)
    paths++;
  if (paths >= PAR_MIN && W.threads != 1)
    n = threads_wanted();
  /* Runs of about equal bytes, each starting at a path. */
  const char *from = in->p, *end = in->p + in->len - 1;
  for (int i = 0; i < n; i++)
    {
      const char *to = i == n - 1 ? end : in->p + (in->len - 1) * (size_t)(i + 1) / (size_t)n;
      if (to < from)
        to = from;
      while (to < end && to > in->p && to[-1] != 0)
        to++;
      W.workers[i].list_from = from;
      W.workers[i].list_to = to;
      from = to;
    }
  W.nworkers = 1;
  while (W.nworkers < n && pthread_create(&W.workers[W.nworkers].tid, NULL, run_list, &W.workers[W.nworkers]) == 0)
    W.nworkers++;
  stat_paths(&W.workers[0], W.workers[0].list_from, W.workers[0].list_to);
  if (W.nworkers < n) /* a thread that could not start: the first does the rest */
    stat_paths(&W.workers[0], W.workers[W.nworkers].list_from, end);
  sort_records(&W.workers[0]);
  for (int i = 1; i < W.nworkers; i++)
    pthread_join(W.workers[i].tid, NULL);
  free(in->p);
}

int
walk_main(int argc, char **argv)
{
  const char *work;
  long max = LONG_MAX;
  static char out_buf[1 << 16];
  int i;

  if (argc < 2)
    die("--walk: usage: sbx-launch --walk WORK [--files walk|list|none] [--max N] [--threads N] [--skip-dir NAME]... "
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
      else if (strcmp(f, "--threads") == 0)
        {
          if (parse_long(v, 0, MAX_THREADS, &W.threads) != 0)
            die("--walk: --threads %s: not 0 to %d", v, MAX_THREADS);
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
  long files = 0, dirs = 0;
  for (int i = 0; i < MAX_THREADS; i++)
    {
      files += W.workers[i].counted;
      dirs += W.workers[i].dirs_listed;
    }
  /* Past --max the fingerprint is unknown, and the walk counted --max (threads may lstat a few more
   * before they see the others' count). */
  if (W.files == FILES_WALK && files > W.max)
    W.over = 1;
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
  put_record("N%ld", W.over ? W.max : files);
  put_record("D%ld", dirs);
  if (fflush(stdout) != 0)
    die_with_error("--walk: writing");
  return 0;
}
