#include <string.h>
#include "gzhead.h"

void gz_init(struct gz_state *st, struct gz_header *head) {
  memset(st, 0, sizeof *st);
  st->head = head;
  if (head) head->extra_len = 0;
}

unsigned gz_feed(struct gz_state *st, const unsigned char *next, unsigned n) {
  const unsigned char *start = next;
  unsigned copy, len;
  while (n) {
    switch (st->mode) {
    case MODE_FLAGS:
      st->flags = *next++; n--;
      st->length = 0;
      st->mode = st->flags & FLAG_EXTRA ? MODE_EXLEN : MODE_NAME;
      break;
    case MODE_EXLEN:
      /* two bytes, little-endian; length counts the bytes seen so far */
      if (st->length == 0) { st->head->extra_len = *next++; n--; st->length = 1; break; }
      st->head->extra_len |= (unsigned)*next++ << 8; n--;
      st->length = st->head->extra_len;
      st->mode = st->length ? MODE_EXTRA : MODE_NAME;
      break;
    case MODE_EXTRA:
      copy = st->length;
      if (copy > n) copy = n;
      if (st->head != NULL && st->head->extra != NULL &&
          (len = st->head->extra_len - st->length) < st->head->extra_max) {
        memcpy(st->head->extra + len, next,
               len + copy > st->head->extra_max ? st->head->extra_max - len : copy);
      }
      st->length -= copy;
      next += copy; n -= copy;
      if (st->length == 0) st->mode = MODE_NAME;
      break;
    case MODE_NAME:
      if (st->head != NULL && st->head->name != NULL && st->have < st->head->name_max)
        st->head->name[st->have++] = (char)*next;
      if (*next++ == 0) st->mode = MODE_DONE;
      n--;
      break;
    case MODE_DONE:
      return (unsigned)(next - start);
    }
  }
  return (unsigned)(next - start);
}
