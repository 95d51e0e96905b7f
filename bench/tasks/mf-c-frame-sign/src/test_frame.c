#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frame.h"

static size_t put(char *buf, size_t off, const char *payload, size_t len) {
  buf[off] = (char)(len >> 8);
  buf[off + 1] = (char)(len & 0xff);
  memcpy(buf + off + FRAME_HEADER, payload, len);
  return off + FRAME_HEADER + len;
}

int main(void) {
  char big[200];
  memset(big, 'x', sizeof big);
  char *wire = malloc(512);
  size_t n = 0;
  n = put(wire, n, "hello", 5);
  n = put(wire, n, big, sizeof big);
  n = put(wire, n, "bye", 3);

  char *payloads[4];
  size_t lens[4];
  int failed = 0;
  int count = split_frames(wire, n, payloads, lens, 4);
  if (count != 3) { printf("FAIL: %d frames, want 3\n", count); failed++; }
  else {
    if (lens[0] != 5 || strcmp(payloads[0], "hello") != 0) { printf("FAIL: frame 0\n"); failed++; }
    if (lens[1] != 200 || memcmp(payloads[1], big, 200) != 0) { printf("FAIL: frame 1\n"); failed++; }
    if (lens[2] != 3 || strcmp(payloads[2], "bye") != 0) { printf("FAIL: frame 2\n"); failed++; }
  }
  for (int i = 0; i < count; i++) free(payloads[i]);
  free(wire);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
