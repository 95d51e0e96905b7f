#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "handlers.h"

struct handler { const char *name; int (*fn)(const int *, size_t); int expect; };

static const struct handler handlers[] = {
  {"sum", h_sum, 442},
  {"count_even", h_count_even, 8},
  {"count_odd", h_count_odd, 10},
  {"max", h_max, 91},
  {"min", h_min, -20},
  {"sum_squares", h_sum_squares, 26638},
  {"count_pos", h_count_pos, 14},
  {"count_neg", h_count_neg, 3},
  {"sum_abs", h_sum_abs, 498},
  {"alt_sum", h_alt_sum, 150},
  {"count_big", h_count_big, 4},
  {"count_small", h_count_small, 8},
  {"sum_even", h_sum_even, 222},
  {"sum_odd", h_sum_odd, 220},
  {"count_mult3", h_count_mult3, 11},
  {"sum_mult3", h_sum_mult3, 252},
  {"count_mult5", h_count_mult5, 6},
  {"xor_all", h_xor_all, -128},
  {"sum_idx", h_sum_idx, 4084},
  {"count_zero", h_count_zero, 1},
  {"sum_halves", h_sum_halves, 218},
  {"count_rises", h_count_rises, 9},
  {"count_falls", h_count_falls, 8},
  {"sum_last_digits", h_sum_last_digits, 52},
};

static const int values[] = {12, -7, 33, 0, 58, 5, 91, -20, 45, 6, 15, 72, 3, -1, 30, 64, 9, 27};

int main(void) {
  size_t n = sizeof values / sizeof values[0];
  int failed = 0;
  for (size_t k = 0; k < sizeof handlers / sizeof handlers[0]; k++) {
    int *v = malloc(n * sizeof *v);
    memcpy(v, values, n * sizeof *v);
    int got = handlers[k].fn(v, n);
    if (got != handlers[k].expect) { printf("FAIL %s: %d != %d\n", handlers[k].name, got, handlers[k].expect); failed++; }
    free(v);
  }
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
