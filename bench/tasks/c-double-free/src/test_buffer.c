#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buffer.h"

int main(void) {
  struct buffer b;
  int failed = 0;
  if (buffer_init(&b, 4) != 0) return 2;
  buffer_append(&b, "sand");
  buffer_append(&b, "box");
  char *s = buffer_take(&b);
  if (strcmp(s, "sandbox") != 0) { printf("FAIL take: %s\n", s); failed++; }
  free(s);
  buffer_free(&b);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
