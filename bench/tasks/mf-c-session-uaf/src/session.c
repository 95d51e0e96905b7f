#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"

static void greeting_for(const char *user, char *out, size_t n) {
  snprintf(out, n, "%s", user[0] == 'a' ? "Hello" : user[0] == 'b' ? "Hi" : "Welcome");
}

void session_open(struct session *s, struct cache *c, const char *user) {
  snprintf(s->user, sizeof s->user, "%s", user);
  if (!cache_get(c, user)) {
    char g[32];
    greeting_for(user, g, sizeof g);
    cache_put(c, user, g);
  }
  s->greeting = cache_get(c, user);
}

void session_close(struct session *s) {
  s->greeting = NULL;
}
