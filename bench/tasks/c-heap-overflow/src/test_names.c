#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"

int main(void) {
  const char *list[] = {"ada", "grace", "linus", "ken", NULL};
  int failed = 0;
  for (int i = 0; list[i] != NULL; i++) {
    char *s = shout(list[i]);
    if (s == NULL || strlen(s) != strlen(list[i]) + 1 || s[strlen(s) - 1] != '!') {
      printf("FAIL shout(%s)\n", list[i]);
      failed++;
    }
    free(s);
  }
  if (count_longer(list, 3) != 2) { printf("FAIL count_longer\n"); failed++; }
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
