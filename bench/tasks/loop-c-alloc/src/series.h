#ifndef SERIES_H
#define SERIES_H
#include <stddef.h>
int *make_series(size_t n);
void fill_squares(int *values, size_t n);
long series_sum(const int *values, size_t n);
#endif
