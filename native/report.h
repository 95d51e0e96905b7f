/* sbx-launch: the report page init and the command write their steps to,
 * and the JSON status the launcher writes from it (report.c). */
#ifndef SBX_REPORT_H
#define SBX_REPORT_H
#include "util.h"
#include <sys/resource.h>

#define MAX_STEPS 64

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

extern struct report *rep;
extern int64_t t_start;
void record(const char *name, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Records a failed setup step (with errno) and ends the calling process. */
void fail_step(const char *step, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* What the launcher gathers for the status besides the report page. */
struct status
{
  int64_t t0, t_end;
  int timed_out, interrupted, init_status;
  long long stdout_bytes, stderr_bytes; /* relay.c: one pipe for both streams counts all as stdout */
  long long log_cap, log_dropped, log_unwritten;
  int log_errno;
  const char *cgroup_path; /* "": no cgroup */
  long oom_kills;
};
void write_status(int fd, const struct status *st);

#endif
