#include "stats.h"

/* The sum of the n values. */
long long total(const int *values, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) sum += values[i];
  return sum;
}

/* The largest of the n values (n > 0). */
int largest(const int *values, int n) {
  int best = values[0];
  for (int i = 1; i < n; i++) {
    if (values[i] > best) best = values[i];
  }
  return best;
}
