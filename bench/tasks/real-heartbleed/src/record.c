#include <stdlib.h>
#include <string.h>
#include "record.h"

int record_read(const unsigned char *wire, size_t n, struct record *r) {
  if (n < 5) return -1;
  size_t length = ((size_t)wire[3] << 8) | wire[4];
  if (n - 5 < length) return -1;
  r->type = wire[0];
  r->length = length;
  r->data = malloc(length ? length : 1);
  if (!r->data) return -1;
  memcpy(r->data, wire + 5, length);
  return 0;
}

void record_free(struct record *r) {
  free(r->data);
  r->data = NULL;
  r->length = 0;
}
