#ifndef SOCKS_H
#define SOCKS_H
#include <stddef.h>

enum { SOCKS_OK = 0, SOCKS_AGAIN = 1, SOCKS_ERR = -1, SOCKS_ERR_LONG_HOSTNAME = -2 };

/* The proxy, as the handshake sees it: replies arrive when they arrive (a slow proxy answers later). */
struct proxy {
  unsigned char sent[600]; size_t sent_len;     /* what we sent, in order */
  int method_reply_after;                       /* calls before the method reply is there */
};

/* One connection through a SOCKS5 proxy. buf is the connection's scratch buffer (BUFSIZE bytes). */
#define BUFSIZE 262
struct conn {
  const char *hostname; unsigned short port;
  int remote_resolve;   /* the proxy resolves the name (socks5h); else we send an address */
  int state;
  unsigned char *buf;
  struct proxy *px;
};

struct conn *conn_new(const char *hostname, unsigned short port, int remote_resolve, struct proxy *px);
void conn_free(struct conn *c);

/* Drives the handshake; call again while it returns SOCKS_AGAIN. */
int socks5_connect(struct conn *c);

/* The name resolved locally: 4 bytes of an IPv4 address. */
void resolve_local(const char *hostname, unsigned char addr[4]);
/* Sends n bytes to the proxy; whether the method reply has arrived. */
void proxy_send(struct proxy *px, const unsigned char *p, size_t n);
int proxy_method_reply(struct proxy *px);
#endif
