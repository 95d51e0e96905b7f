/* sbx-launch: a delegated cgroup v2 for the run (cgroup.c). */
#ifndef SBX_CGROUP_H
#define SBX_CGROUP_H
#include "spec.h"

extern int cgroup_fd;
extern char cgroup_path[PATH_MAX];
void step_cgroup(const struct spec *s);
long cgroup_oom_kills(void);

#endif
