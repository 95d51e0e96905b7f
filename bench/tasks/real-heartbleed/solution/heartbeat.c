#include <stdlib.h>
#include <string.h>
#include "record.h"

/* The padding of a response: fixed bytes (the tests compare them). */
static void pad(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(0xA0 + i);
}

int heartbeat_process(const struct record *r, unsigned char **resp, size_t *resp_len) {
  const unsigned char *p = r->data;
  unsigned int hbtype;
  unsigned int payload;

  *resp = NULL;
  *resp_len = 0;
  if (r->type != REC_HEARTBEAT) return 0;
  if (1 + 2 + HB_PADDING > r->length) return 0; /* silently discard per RFC 6520 sec. 4 */

  /* Read type and payload length first */
  hbtype = *p++;
  payload = (unsigned int)p[0] << 8 | p[1];
  p += 2;
  if (1 + 2 + payload + HB_PADDING > r->length) return 0; /* silently discard per RFC 6520 sec. 4 */
  const unsigned char *pl = p;

  if (hbtype == HB_REQUEST) {
    /* Allocate memory for the response: type, length, payload and padding */
    size_t len = 1 + 2 + payload + HB_PADDING;
    unsigned char *buffer = malloc(len);
    unsigned char *bp = buffer;
    if (!buffer) return 0;

    /* Enter response type, length and copy payload */
    *bp++ = HB_RESPONSE;
    *bp++ = (unsigned char)(payload >> 8);
    *bp++ = (unsigned char)payload;
    memcpy(bp, pl, payload);
    bp += payload;
    pad(bp, HB_PADDING);

    *resp = buffer;
    *resp_len = len;
    return 1;
  }
  /* a response to a request of ours: nothing to send */
  return 0;
}
