/* sbx-launch: the log's reader sets the pace of the relay (pace.c). */
#ifndef SBX_PACE_H
#define SBX_PACE_H
#include "log.h"

void pace_open(const struct spec *s);
int pace_held(const struct sink *k);
void pace_progress(const struct sink *k, int finishing);
/* The most the relay reads (and writes into a sink) at a time. */
#define RELAY_READ 65536

#endif
