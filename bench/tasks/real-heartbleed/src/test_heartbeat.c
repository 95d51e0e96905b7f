#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"

static int failed;

/* A heartbeat request on the wire: the announced payload length, then the bytes really sent. */
static size_t request(unsigned char *w, unsigned announced, const char *payload, size_t sent, size_t padding) {
  size_t body = 3 + sent + padding;
  w[0] = REC_HEARTBEAT; w[1] = 3; w[2] = 1; w[3] = (unsigned char)(body >> 8); w[4] = (unsigned char)body;
  w[5] = HB_REQUEST; w[6] = (unsigned char)(announced >> 8); w[7] = (unsigned char)announced;
  memcpy(w + 8, payload, sent);
  memset(w + 8 + sent, 0x55, padding);
  return 5 + body;
}

static void check(const char *name, unsigned announced, const char *payload, size_t sent, size_t padding, int want) {
  unsigned char wire[256];
  struct record r;
  size_t n = request(wire, announced, payload, sent, padding);
  if (record_read(wire, n, &r) != 0) { printf("FAIL %s: record\n", name); failed++; return; }
  unsigned char *resp; size_t len;
  int got = heartbeat_process(&r, &resp, &len);
  if (got != want) { printf("FAIL %s: heartbeat_process returned %d, want %d\n", name, got, want); failed++; }
  if (got && want) {
    if (len != 3 + sent + HB_PADDING || resp[0] != HB_RESPONSE || memcmp(resp + 3, payload, sent) != 0) { printf("FAIL %s: response\n", name); failed++; }
  }
  if (got) free(resp);
  record_free(&r);
}

int main(void) {
  check("echo", 4, "ping", 4, HB_PADDING, 1);
  check("echo, long padding", 5, "hello", 5, 40, 1);
  /* RFC 6520: a message whose payload_length is too large must be discarded silently */
  check("payload_length past the record", 0x4000, "ping", 4, HB_PADDING, 0);
  check("no room for the padding", 4, "ping", 4, 3, 0);
  check("empty record", 0, "", 0, 0, 0);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
