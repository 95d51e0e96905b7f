#include <stdio.h>
#include <string.h>
#include "greet.h"

/* Writes "Hello, <name>." into out (at most cap bytes, always terminated). */
void greet(const char *name, char *out, size_t cap) {
  snprintf(out, cap, "Hello, %s.", name);
}

/* Upper-cases the first letter of word in place. */
void capitalize(char *word) {
  if (word[0] >= 'a' && word[0] <= 'z') word[0] = (char)(word[0] - 'a' + 'A');
}
