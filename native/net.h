/* sbx-launch: the hostname and the loopback interface (net.c). */
#ifndef SBX_NET_H
#define SBX_NET_H
#include "spec.h"

void step_hostname(const struct spec *s);
void step_loopback(const struct spec *s);
/* Brings lo up: 0, or an errno. */
int lo_up(void);

#endif
