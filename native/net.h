/* sbx-launch: the hostname and the loopback interface (net.c). */
#ifndef SBX_NET_H
#define SBX_NET_H
#include "spec.h"

void step_hostname(const struct spec *s);
void step_loopback(const struct spec *s);
/* Brings lo up: 0, or an errno. */
int lo_up(void);
/* The network namespace made by the command beside init's mounts (net.c):
 * whether it is, its pipe (init, before forking the command), the command's
 * pid (init, after), its making (the command) and init's joining. */
int netns_deferred(const struct spec *s);
void netns_prepare(const struct spec *s);
void netns_forked(pid_t command);
void step_netns_make(void);
void join_netns(void);

#endif
