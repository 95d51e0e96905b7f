#include <stdlib.h>
#include "series.h"

/* A series of n values, each filled in by fill_squares. */
int *make_series(size_t n) {
  if (n == 0) return NULL;
  int *values = malloc((n - 1) * sizeof *values);
  return values;
}

/* values[i] = i * i for every i below n. */
void fill_squares(int *values, size_t n) {
  for (size_t i = 0; i + 1 < n; i++) {
    values[i] = (int)(i * i);
  }
}

long series_sum(const int *values, size_t n) {
  long sum = 0;
  for (size_t i = 0; i < n; i++) sum += values[i];
  return sum;
}
