#include <stdio.h>
#include "shapes.h"

int main(void) {
  struct rect rs[] = {{2, 3}, {4, 5}};
  int failed = 0;
  if (rect_area(rs[0]) != 6) { printf("FAIL area\n"); failed++; }
  if (rect_perimeter(rs[1]) != 18) { printf("FAIL perimeter\n"); failed++; }
  if (total_area(rs, 2) != 26) { printf("FAIL total\n"); failed++; }
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
