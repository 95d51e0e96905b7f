#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gzhead.h"

static int failed;

/* A header whose extra field holds extra_len bytes 1, 2, 3, ..., and the name "log.txt". */
static unsigned build(unsigned char *w, unsigned extra_len) {
  unsigned n = 0;
  w[n++] = FLAG_EXTRA;
  w[n++] = (unsigned char)extra_len; w[n++] = (unsigned char)(extra_len >> 8);
  for (unsigned i = 0; i < extra_len; i++) w[n++] = (unsigned char)(i + 1);
  memcpy(w + n, "log.txt", 8); n += 8;
  return n;
}

/* Reads the header in pieces of `piece` bytes into an extra buffer of extra_max bytes. */
static void check(const char *what, unsigned extra_len, unsigned extra_max, unsigned piece) {
  unsigned char wire[256];
  unsigned total = build(wire, extra_len);
  unsigned char *extra = malloc(extra_max);
  char name[16] = {0};
  struct gz_header h = { extra, 0, extra_max, name, sizeof name };
  struct gz_state st;
  gz_init(&st, &h);
  for (unsigned off = 0; off < total; off += piece)
    gz_feed(&st, wire + off, total - off < piece ? total - off : piece);
  unsigned kept = extra_len < extra_max ? extra_len : extra_max;
  int ok = st.mode == MODE_DONE && h.extra_len == extra_len && strcmp(name, "log.txt") == 0;
  for (unsigned i = 0; ok && i < kept; i++) ok = extra[i] == (unsigned char)(i + 1);
  if (!ok) { printf("FAIL %s: mode %d, extra_len %u, name \"%s\"\n", what, st.mode, h.extra_len, name); failed++; }
  free(extra);
}

int main(void) {
  check("in one piece", 6, 8, 256);
  check("byte by byte", 6, 8, 1);
  check("extra larger than the buffer, one piece", 20, 8, 256);
  /* the extra field arrives in pieces, and it is longer than the caller's buffer */
  check("extra larger than the buffer, in pieces", 20, 8, 7);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
