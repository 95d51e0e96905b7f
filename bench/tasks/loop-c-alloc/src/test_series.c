#include <stdio.h>
#include <stdlib.h>
#include "series.h"

int main(void) {
  size_t n = 10;
  int *v = make_series(n);
  fill_squares(v, n);
  int failed = 0;
  if (v[n - 1] != 81) { printf("FAIL last square: %d\n", v[n - 1]); failed++; }
  if (series_sum(v, n) != 285) { printf("FAIL sum: %ld\n", series_sum(v, n)); failed++; }
  free(v);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
