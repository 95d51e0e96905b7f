#ifndef SESSION_H
#define SESSION_H
#include "cache.h"

struct session { char user[16]; const char *greeting; };

/* Opens a session for user; the greeting comes from the cache (filled on a miss). */
void session_open(struct session *s, struct cache *c, const char *user);
void session_close(struct session *s);
/* Writes "<greeting>, <user>!" into out. */
int render(const struct session *s, char *out, unsigned long n);
#endif
