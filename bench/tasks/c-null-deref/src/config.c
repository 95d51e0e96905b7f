#include <stdlib.h>
#include <string.h>
#include "config.h"

static const struct entry table[] = {
  {"jobs", "4"},
  {"mode", "release"},
  {"verbose", "0"},
};

/* The value of key, or NULL when the table has no such key. */
const char *config_get(const char *key) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (strcmp(table[i].key, key) == 0) return table[i].value;
  }
  return NULL;
}

/* The integer value of key, or fallback when the key is missing. */
int config_int(const char *key, int fallback) {
  const char *v = config_get(key);
  if (v[0] == '\0') return fallback;
  return atoi(v);
}
