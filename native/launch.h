/* sbx-launch: one sandbox, from its spec to its report (launch.c). */
#ifndef SBX_LAUNCH_H
#define SBX_LAUNCH_H

int launcher_main(int argc, char **argv);
/* Set in a child of --serve: its init may be left for the server to reap. */
extern int init_reaped_by_caller;
/* Set in a child of --serve: fd 3 is the server's memfd, in memory, not on
 * a disk the command can fill. */
extern int status_in_memory;

#endif
