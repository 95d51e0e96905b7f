#include <stdlib.h>
#include <string.h>
#include "buffer.h"

int buffer_init(struct buffer *b, size_t cap) {
  b->data = malloc(cap);
  b->len = 0;
  b->cap = b->data ? cap : 0;
  return b->data ? 0 : -1;
}

int buffer_append(struct buffer *b, const char *s) {
  size_t n = strlen(s);
  if (b->len + n + 1 > b->cap) {
    size_t cap = (b->len + n + 1) * 2;
    char *grown = malloc(cap);
    if (grown == NULL) return -1;
    memcpy(grown, b->data, b->len);
    free(b->data);
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
  return 0;
}

/* Hands the contents to the caller (who frees them) and empties the buffer. */
char *buffer_take(struct buffer *b) {
  char *out = b->data;
  b->len = 0;
  b->cap = 0;
  return out;
}

void buffer_free(struct buffer *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}
