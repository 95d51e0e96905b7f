#ifndef TABLE_H
#define TABLE_H
#include <stddef.h>
#define MAX_COLS 8

struct field { char *text; size_t len; };  /* text: the unquoted value; len: its length in bytes */
struct row { struct field col[MAX_COLS]; int ncols; };

/* Splits one CSV line into fields ("quoted, values" keep their commas). Returns the field count. */
int parse_line(const char *line, struct row *out);
void row_free(struct row *r);

/* Lays the rows out as aligned columns, one line each: a malloc'd string the caller frees. */
char *format_table(const struct row *rows, int nrows);
#endif
