/* sbx-launch: one sandbox, from its spec to its report (launch.c). */
#ifndef SBX_LAUNCH_H
#define SBX_LAUNCH_H

int launcher_main(int argc, char **argv);
/* Set in a child of --serve: its init may be left for the server to reap. */
extern int init_reaped_by_caller;

#endif
