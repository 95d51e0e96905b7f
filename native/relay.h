/* sbx-launch: the command's stdout and stderr into fd 1 and 2, counted (relay.c). */
#ifndef SBX_RELAY_H
#define SBX_RELAY_H
#include "log.h"

struct relay
{
  int rd, wr; /* the pipe: the launcher reads, the sandbox writes */
  long long bytes;
  struct sink *sink; /* what writes it into the launcher's fd 1 or 2 (log.c) */
};
extern struct relay relays[2];
void relay_open(const struct spec *s);
void relay_into_stdio(void);
void relay_close_writers(void);
int relay_pump(struct relay *r);
void relay_drain(void);

#endif
