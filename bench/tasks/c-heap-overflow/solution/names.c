#include <stdlib.h>
#include <string.h>
#include "names.h"

/* A heap copy of name followed by one '!': "bob" -> "bob!". */
char *shout(const char *name) {
  size_t n = strlen(name);
  char *out = malloc(n + 2);
  if (out == NULL) return NULL;
  memcpy(out, name, n);
  out[n] = '!';
  out[n + 1] = '\0';
  return out;
}

/* The number of names in list (terminated by NULL) longer than min characters. */
int count_longer(const char **list, size_t min) {
  int count = 0;
  for (size_t i = 0; list[i] != NULL; i++) {
    if (strlen(list[i]) > min) count++;
  }
  return count;
}
