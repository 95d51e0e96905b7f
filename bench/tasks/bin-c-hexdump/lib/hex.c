#include <stddef.h>
#include "hex.h"

static const char DIGITS[] = "0123456789abcdef";

size_t hex_encode(const unsigned char *in, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    out[o++] = DIGITS[in[i] >> 4];
    out[o++] = DIGITS[in[i] & 15];
  }
  out[o] = '\0';
  return o;
}
