#include <stdio.h>
#include <string.h>
#include "socks.h"

static int failed;

static int handshake(const char *host, int remote, int slow, struct proxy *px) {
  memset(px, 0, sizeof *px);
  px->method_reply_after = slow;
  struct conn *c = conn_new(host, 443, remote, px);
  int r, calls = 0;
  while ((r = socks5_connect(c)) == SOCKS_AGAIN && calls++ < 10) {}
  conn_free(c);
  return r;
}

int main(void) {
  struct proxy px;
  char longname[301];
  memset(longname, 'a', 296); memcpy(longname + 296, ".com", 5);

  if (handshake("example.com", 1, 0, &px) != SOCKS_OK || px.sent[3 + 4] != 11 || memcmp(px.sent + 3 + 5, "example.com", 11) != 0) {
    printf("FAIL: the proxy resolves a short name\n"); failed++;
  }
  if (handshake("example.com", 0, 1, &px) != SOCKS_OK || px.sent[3 + 3] != 1) {
    printf("FAIL: a local resolve sends an IPv4 address\n"); failed++;
  }
  /* a name longer than 255 characters cannot go to the proxy: the handshake must fail, fast or slow */
  int fast = handshake(longname, 1, 0, &px);
  if (fast != SOCKS_ERR_LONG_HOSTNAME) { printf("FAIL: long name, fast proxy: %d\n", fast); failed++; }
  int slow = handshake(longname, 1, 2, &px);
  if (slow != SOCKS_ERR_LONG_HOSTNAME) { printf("FAIL: long name, slow proxy: %d\n", slow); failed++; }
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
