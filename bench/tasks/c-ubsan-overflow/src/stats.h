#ifndef STATS_H
#define STATS_H
long long total(const int *values, int n);
int largest(const int *values, int n);
#endif
