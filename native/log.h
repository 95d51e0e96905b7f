/* sbx-launch: the raw log, capped (log.c). */
#ifndef SBX_LOG_H
#define SBX_LOG_H
#include "spec.h"

enum sink_mode
{
  SINK_PLAIN, /* no cap (or not a file): written in order as it comes */
  SINK_RING,  /* capped: the head, then the last bytes in a ring in the file */
  SINK_HEAD,  /* capped, on a descriptor the ring cannot use: the first bytes only */
};
struct sink
{
  int fd;
  enum sink_mode mode;
  long long base;      /* the file offset the log starts at */
  long long cap, head; /* --max-log, and the part of it kept from the start */
  long long seen;      /* bytes handed to the sink */
  long long written;   /* of those, the bytes written (ring: also those overwritten since) */
  long long dropped;   /* cut out by the cap, the marker's span included (sink_finish) */
  int err;             /* errno of the first failed write */
  int stopped;         /* nothing more is written (after any error but EAGAIN) */
};
void sinks_open(const struct spec *s, int merged, struct sink *out[2]);
void sink_write(struct sink *k, const char *buf, size_t n);
void sinks_finish(void);
int sink_followable(const struct sink *k);
/* Called just before a followed ring is put in order (set by pace.c, a part above this one). */
extern void (*sink_ordering)(const struct sink *k);
void sinks_total(long long *cap, long long *dropped, long long *unwritten, int *err);

#endif
