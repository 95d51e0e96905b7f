#include <stdlib.h>
#include <string.h>
#include "table.h"

/* The widest value of each column. */
static void widths(const struct row *rows, int nrows, size_t *w, int *ncols) {
  *ncols = 0;
  memset(w, 0, MAX_COLS * sizeof *w);
  for (int r = 0; r < nrows; r++) {
    if (rows[r].ncols > *ncols) *ncols = rows[r].ncols;
    for (int c = 0; c < rows[r].ncols; c++)
      if (rows[r].col[c].len > w[c]) w[c] = rows[r].col[c].len;
  }
}

char *format_table(const struct row *rows, int nrows) {
  size_t w[MAX_COLS];
  int ncols;
  widths(rows, nrows, w, &ncols);
  size_t line = 0;
  for (int c = 0; c < ncols; c++) line += w[c] + 1;  /* the value, then a space (the last one a newline) */
  char *out = malloc(line * (size_t)nrows + 1);
  char *p = out;
  for (int r = 0; r < nrows; r++) {
    for (int c = 0; c < ncols; c++) {
      const char *text = c < rows[r].ncols ? rows[r].col[c].text : "";
      size_t n = strlen(text);
      memcpy(p, text, n);
      p += n;
      while (n++ < w[c]) *p++ = ' ';
      *p++ = c + 1 < ncols ? ' ' : '\n';
    }
  }
  *p = '\0';
  return out;
}
