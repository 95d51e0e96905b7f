#include <stdio.h>
#include <string.h>
#include "greet.h"

int main(void) {
  char out[128];
  int failed = 0;
  greet("Ada", out, sizeof out);
  if (strcmp(out, "Hello, Ada.") != 0) { printf("FAIL short: %s\n", out); failed++; }
  greet("Margaret Heafield Hamilton", out, sizeof out);
  if (strcmp(out, "Hello, Margaret Heafield Hamilton.") != 0) { printf("FAIL long: %s\n", out); failed++; }
  char w[] = "grace";
  capitalize(w);
  if (strcmp(w, "Grace") != 0) { printf("FAIL capitalize: %s\n", w); failed++; }
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
