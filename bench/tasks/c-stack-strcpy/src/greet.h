#ifndef GREET_H
#define GREET_H
#include <stddef.h>
void greet(const char *name, char *out, size_t cap);
void capitalize(char *word);
#endif
