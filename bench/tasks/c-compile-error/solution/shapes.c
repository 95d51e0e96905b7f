#include "shapes.h"

double rect_area(struct rect r) {
  return r.width * r.height;
}

double rect_perimeter(struct rect r) {
  return 2 * (r.width + r.height);
}

/* The area of all n rectangles together. */
double total_area(const struct rect *rs, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) sum += rect_area(rs[i]);
  return sum;
}
