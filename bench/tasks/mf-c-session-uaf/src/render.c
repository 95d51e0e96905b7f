#include <stdio.h>
#include <string.h>
#include "session.h"

static int title(char *out, unsigned long n, const char *user) {
  return snprintf(out, n, "%.*s", (int)strlen(user), user);
}

/* The banner shown at the top of every page of the session. */
int render(const struct session *s, char *out, unsigned long n) {
  if (!s->greeting) return title(out, n, s->user);
  return snprintf(out, n, "%s, %s!", s->greeting, s->user);
}
