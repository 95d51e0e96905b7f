#ifndef NAMES_H
#define NAMES_H
#include <stddef.h>
char *shout(const char *name);
int count_longer(const char **list, size_t min);
#endif
