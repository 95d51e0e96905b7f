#include <stdio.h>
#include <string.h>
#include "socks.h"

enum { ST_INIT, ST_WAIT_METHOD, ST_DONE };

int socks5_connect(struct conn *c) {
  /* let the proxy resolve the name, unless told otherwise */
  int resolve_locally = !c->remote_resolve;
  size_t hostname_len = strlen(c->hostname);
  unsigned char *buf = c->buf;

  switch (c->state) {
  case ST_INIT:
    /* RFC 1928 chapter 5 allows at most 255 characters for a domain name in the request */
    if (!resolve_locally && hostname_len > 255) {
      fprintf(stderr, "socks5: hostname too long for the proxy to resolve, resolving it locally\n");
      resolve_locally = 1;
    }
    /* greeting: version 5, one method, no authentication */
    buf[0] = 5; buf[1] = 1; buf[2] = 0;
    proxy_send(c->px, buf, 3);
    c->state = ST_WAIT_METHOD;
    /* FALLTHROUGH */
  case ST_WAIT_METHOD:
    if (!proxy_method_reply(c->px)) return SOCKS_AGAIN;
    /* the connect request: version, command, reserved, then the address */
    buf[0] = 5; buf[1] = 1; buf[2] = 0;
    size_t len = 3;
    if (!resolve_locally) {
      buf[len++] = 3; /* a domain name */
      buf[len++] = (unsigned char)hostname_len;
      if (hostname_len > 255) hostname_len = 255;
      memcpy(&buf[len], c->hostname, hostname_len);
      len += hostname_len;
    } else {
      buf[len++] = 1; /* an IPv4 address */
      resolve_local(c->hostname, &buf[len]);
      len += 4;
    }
    buf[len++] = (unsigned char)(c->port >> 8);
    buf[len++] = (unsigned char)c->port;
    proxy_send(c->px, buf, len);
    c->state = ST_DONE;
    return SOCKS_OK;
  default:
    return SOCKS_OK;
  }
}
