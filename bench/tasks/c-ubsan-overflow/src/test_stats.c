#include <stdio.h>
#include "stats.h"

int main(void) {
  int small[] = {1, 2, 3, 4};
  int big[] = {2000000000, 2000000000, 1500000000};
  int failed = 0;
  if (total(small, 4) != 10) { printf("FAIL total small\n"); failed++; }
  if (total(big, 3) != 5500000000LL) { printf("FAIL total big: %lld\n", total(big, 3)); failed++; }
  if (largest(big, 3) != 2000000000) { printf("FAIL largest\n"); failed++; }
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
