#include <stdlib.h>
#include <string.h>
#include "frame.h"

char *copy_payload(const char *src, size_t len) {
  char *out = malloc(len + 1);
  if (!out) return NULL;
  memcpy(out, src, len);
  out[len] = '\0';
  return out;
}
