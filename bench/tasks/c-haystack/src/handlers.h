#ifndef HANDLERS_H
#define HANDLERS_H
#include <stddef.h>
int h_sum(const int *v, size_t n);
int h_count_even(const int *v, size_t n);
int h_count_odd(const int *v, size_t n);
int h_max(const int *v, size_t n);
int h_min(const int *v, size_t n);
int h_sum_squares(const int *v, size_t n);
int h_count_pos(const int *v, size_t n);
int h_count_neg(const int *v, size_t n);
int h_sum_abs(const int *v, size_t n);
int h_alt_sum(const int *v, size_t n);
int h_count_big(const int *v, size_t n);
int h_count_small(const int *v, size_t n);
int h_sum_even(const int *v, size_t n);
int h_sum_odd(const int *v, size_t n);
int h_count_mult3(const int *v, size_t n);
int h_sum_mult3(const int *v, size_t n);
int h_count_mult5(const int *v, size_t n);
int h_xor_all(const int *v, size_t n);
int h_sum_idx(const int *v, size_t n);
int h_count_zero(const int *v, size_t n);
int h_sum_halves(const int *v, size_t n);
int h_count_rises(const int *v, size_t n);
int h_count_falls(const int *v, size_t n);
int h_sum_last_digits(const int *v, size_t n);
#endif
