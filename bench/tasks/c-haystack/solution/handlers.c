#include <stddef.h>
#include "handlers.h"

/* Each handler reads the n values of v and returns one number. */

int h_sum(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += v[i];
  }
  return acc;
}

int h_count_even(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] % 2 == 0) acc++;
  }
  return acc;
}

int h_count_odd(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] % 2 != 0) acc++;
  }
  return acc;
}

int h_max(const int *v, size_t n) {
  int acc = -1000000;
  for (size_t i = 0; i < n; i++) {
    if (v[i] > acc) acc = v[i];
  }
  return acc;
}

int h_min(const int *v, size_t n) {
  int acc = 1000000;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < acc) acc = v[i];
  }
  return acc;
}

int h_sum_squares(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += v[i] * v[i];
  }
  return acc;
}

int h_count_pos(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] > 0) acc++;
  }
  return acc;
}

int h_count_neg(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < 0) acc++;
  }
  return acc;
}

int h_sum_abs(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += v[i] < 0 ? -v[i] : v[i];
  }
  return acc;
}

int h_alt_sum(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += (i % 2 == 0) ? v[i] : -v[i];
  }
  return acc;
}

int h_count_big(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] > 50) acc++;
  }
  return acc;
}

int h_count_small(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < 10) acc++;
  }
  return acc;
}

int h_sum_even(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] % 2 == 0) acc += v[i];
  }
  return acc;
}

int h_sum_odd(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] % 2 != 0) acc += v[i];
  }
  return acc;
}

int h_count_mult3(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] % 3 == 0) acc++;
  }
  return acc;
}

int h_sum_mult3(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] % 3 == 0) acc += v[i];
  }
  return acc;
}

int h_count_mult5(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] % 5 == 0) acc++;
  }
  return acc;
}

int h_xor_all(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc ^= v[i];
  }
  return acc;
}

int h_sum_idx(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += v[i] * (int)i;
  }
  return acc;
}

int h_count_zero(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] == 0) acc++;
  }
  return acc;
}

int h_sum_halves(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += v[i] / 2;
  }
  return acc;
}

int h_count_rises(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && v[i] > v[i - 1]) acc++;
  }
  return acc;
}

int h_count_falls(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && v[i] < v[i - 1]) acc++;
  }
  return acc;
}

int h_sum_last_digits(const int *v, size_t n) {
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += v[i] % 10;
  }
  return acc;
}
