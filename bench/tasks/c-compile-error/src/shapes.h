#ifndef SHAPES_H
#define SHAPES_H
struct rect { double width, height; };
double rect_area(struct rect r);
double rect_perimeter(struct rect r);
double total_area(const struct rect *rs, int n);
#endif
