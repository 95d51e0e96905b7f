#include <stdio.h>
#include <string.h>
#include "config.h"

int main(void) {
  int failed = 0;
  if (config_int("jobs", 1) != 4) { printf("FAIL jobs\n"); failed++; }
  if (strcmp(config_get("mode"), "release") != 0) { printf("FAIL mode\n"); failed++; }
  if (config_int("retries", 3) != 3) { printf("FAIL retries\n"); failed++; }
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
