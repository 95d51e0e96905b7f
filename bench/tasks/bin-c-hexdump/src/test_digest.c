#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "digest.h"

int main(void) {
  int failed = 0;
  char *a = digest_hex("hello, world");
  if (strcmp(a, "071700086f2c2077") != 0) { printf("FAIL: got %s\n", a); failed++; }
  char *b = digest_hex("");
  if (strcmp(b, "0000000000000000") != 0) { printf("FAIL: empty: got %s\n", b); failed++; }
  free(a); free(b);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
