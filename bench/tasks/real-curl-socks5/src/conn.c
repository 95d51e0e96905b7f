#include <stdlib.h>
#include <string.h>
#include "socks.h"

struct conn *conn_new(const char *hostname, unsigned short port, int remote_resolve, struct proxy *px) {
  struct conn *c = calloc(1, sizeof *c);
  c->hostname = hostname;
  c->port = port;
  c->remote_resolve = remote_resolve;
  c->buf = malloc(BUFSIZE);
  c->px = px;
  return c;
}

void conn_free(struct conn *c) {
  free(c->buf);
  free(c);
}

void resolve_local(const char *hostname, unsigned char addr[4]) {
  unsigned h = 0;
  for (const char *p = hostname; *p; p++) h = h * 31 + (unsigned char)*p;
  addr[0] = 10; addr[1] = (unsigned char)(h >> 16); addr[2] = (unsigned char)(h >> 8); addr[3] = (unsigned char)h;
}

void proxy_send(struct proxy *px, const unsigned char *p, size_t n) {
  if (px->sent_len + n <= sizeof px->sent) memcpy(px->sent + px->sent_len, p, n);
  px->sent_len += n;
}

int proxy_method_reply(struct proxy *px) {
  return px->method_reply_after-- <= 0;
}
