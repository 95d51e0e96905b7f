/* sbx-launch: the report page init and the command write their steps to,
 * and the JSON status the launcher writes from it. */
#define _GNU_SOURCE
#include "report.h"
#include <sys/wait.h>

struct report *rep;
int64_t t_start;

void
record(const char *name, int ok, const char *fmt, ...)
{
  struct step *s;
  va_list ap;
  /* init and the command record concurrently into the shared page. */
  int i = __atomic_fetch_add(&rep->nsteps, 1, __ATOMIC_RELAXED);
  if (i >= MAX_STEPS)
    return;
  s = &rep->steps[i];
  s->at_ns = now_ns() - t_start;
  snprintf(s->name, sizeof s->name, "%s", name);
  s->ok = ok;
  va_start(ap, fmt);
  vsnprintf(s->detail, sizeof s->detail, fmt, ap);
  va_end(ap);
}

/* Records a failed setup step (with errno) and ends the calling process. */
void
fail_step(const char *step, const char *fmt, ...)
{
  int saved = errno;
  va_list ap;
  int expected = 0;
  if (__atomic_compare_exchange_n(&rep->failed, &expected, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    {
      rep->fail_errno = saved;
      snprintf(rep->fail_step, sizeof rep->fail_step, "%s", step);
      va_start(ap, fmt);
      vsnprintf(rep->fail_detail, sizeof rep->fail_detail, fmt, ap);
      va_end(ap);
    }
  _exit(EXIT_SETUP_FAILED);
}

struct buf
{
  char *p;
  size_t len, cap;
};

static void bput(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
bput(struct buf *b, const char *fmt, ...)
{
  va_list ap;
  int n;
  for (;;)
    {
      va_start(ap, fmt);
      n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
      va_end(ap);
      if (n < 0)
        return;
      if ((size_t)n < b->cap - b->len)
        {
          b->len += (size_t)n;
          return;
        }
      b->cap = (b->cap + (size_t)n) * 2;
      b->p = xrealloc(b->p, b->cap);
    }
}

static void
bstr(struct buf *b, const char *s)
{
  bput(b, "\"");
  for (; *s; s++)
    {
      unsigned char c = (unsigned char)*s;
      if (c == '"' || c == '\\')
        bput(b, "\\%c", c);
      else if (c < 0x20)
        bput(b, "\\u%04x", c);
      else
        bput(b, "%c", c);
    }
  bput(b, "\"");
}

/* Writes the JSON status from the report page and what the launcher gathered
 * (struct status: relay counts, log totals, the cgroup) into fd. */
void
write_status(int fd, const struct status *st)
{
  int64_t t0 = st->t0, t_end = st->t_end;
  int timed_out = st->timed_out, interrupted = st->interrupted, init_status = st->init_status;
  struct buf b = { xmalloc(8192), 0, 8192 };
  int i;
  bput(&b, "{\"proto\":%d,\"version\":\"%s\",", SBX_PROTO, SBX_VERSION);
  bput(&b, "\"timed_out\":%s,\"interrupted\":%s,", timed_out ? "true" : "false", interrupted ? "true" : "false");
  if (rep->have_status && WIFEXITED(rep->wstatus))
    bput(&b, "\"exit_code\":%d,\"signal\":null,", WEXITSTATUS(rep->wstatus));
  else if (rep->have_status && WIFSIGNALED(rep->wstatus))
    bput(&b, "\"exit_code\":null,\"signal\":%d,", WTERMSIG(rep->wstatus));
  else if (timed_out || interrupted)
    bput(&b, "\"exit_code\":null,\"signal\":%d,", SIGKILL);
  else
    bput(&b, "\"exit_code\":null,\"signal\":null,");
  bput(&b, "\"exec_errno\":%d,", rep->exec_errno);
  /* One pipe for both streams (relay.c): all of it counts as stdout. */
  bput(&b, "\"output_bytes\":%lld,\"stdout_bytes\":%lld,\"stderr_bytes\":%lld,", st->stdout_bytes + st->stderr_bytes,
       st->stdout_bytes, st->stderr_bytes);
  bput(&b, "\"log_cap\":%lld,\"log_dropped\":%lld,\"log_unwritten\":%lld,\"log_errno\":%d,", st->log_cap,
       st->log_dropped, st->log_unwritten, st->log_errno);
  bput(&b, "\"setup_ns\":%lld,", (long long)((rep->t_exec_ns ? rep->t_exec_ns : t_end) - t0));
  bput(&b, "\"wall_ns\":%lld,",
       (long long)(rep->t_exec_ns ? (rep->t_exit_ns ? rep->t_exit_ns : t_end) - rep->t_exec_ns : 0));
  bput(&b, "\"teardown_ns\":%lld,", (long long)(rep->t_exit_ns ? t_end - rep->t_exit_ns : 0));
  bput(&b, "\"rusage\":{\"user_us\":%lld,\"sys_us\":%lld,\"max_rss_kb\":%ld},",
       (long long)rep->ru.ru_utime.tv_sec * 1000000 + rep->ru.ru_utime.tv_usec,
       (long long)rep->ru.ru_stime.tv_sec * 1000000 + rep->ru.ru_stime.tv_usec, rep->ru.ru_maxrss);
  if (rep->failed)
    {
      bput(&b, "\"error\":{\"step\":");
      bstr(&b, rep->fail_step);
      bput(&b, ",\"errno\":%d,\"strerror\":", rep->fail_errno);
      bstr(&b, strerror(rep->fail_errno));
      bput(&b, ",\"detail\":");
      bstr(&b, rep->fail_detail);
      bput(&b, "},");
    }
  else if (!rep->have_status && !timed_out && !interrupted)
    {
      bput(&b, "\"error\":{\"step\":\"init\",\"errno\":0,\"strerror\":\"\",\"detail\":");
      if (WIFSIGNALED(init_status))
        bput(&b, "\"init died from signal %d\"},", WTERMSIG(init_status));
      else
        bput(&b, "\"init exited with %d\"},", WEXITSTATUS(init_status));
    }
  else
    bput(&b, "\"error\":null,");
  bput(&b, "\"cgroup\":{\"path\":");
  if (st->cgroup_path[0])
    {
      bstr(&b, st->cgroup_path);
      bput(&b, ",\"oom_kills\":%ld}", st->oom_kills);
    }
  else
    bput(&b, "null,\"oom_kills\":0}");
  bput(&b, ",\"steps\":[");
  /* nsteps counts every record() call, also those past the array (dropped there). */
  for (i = 0; i < rep->nsteps && i < MAX_STEPS; i++)
    {
      bput(&b, "%s{\"step\":", i ? "," : "");
      bstr(&b, rep->steps[i].name);
      bput(&b, ",\"ok\":%s,\"us\":%lld,\"detail\":", rep->steps[i].ok ? "true" : "false",
           (long long)(rep->steps[i].at_ns / 1000));
      bstr(&b, rep->steps[i].detail);
      bput(&b, "}");
    }
  bput(&b, "]}\n");
  write_all(fd, b.p, b.len);
  free(b.p);
}
