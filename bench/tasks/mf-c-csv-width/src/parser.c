#include <stdlib.h>
#include <string.h>
#include "table.h"

static char *copy_span(const char *start, size_t n) {
  char *s = malloc(n + 1);
  memcpy(s, start, n);
  s[n] = '\0';
  return s;
}

/* One field starting at p; sets *next past its comma (or to the end of the line). */
static struct field parse_field(const char *p, const char **next) {
  struct field f;
  if (*p == '"') {
    const char *start = p + 1;
    const char *end = strchr(start, '"');
    if (!end) end = start + strlen(start);
    f.text = copy_span(start, (size_t)(end - start));
    f.len = (size_t)(end - start) - 2; /* less the two quotes */
    p = *end ? end + 1 : end;
  } else {
    const char *end = strchr(p, ',');
    if (!end) end = p + strlen(p);
    f.text = copy_span(p, (size_t)(end - p));
    f.len = (size_t)(end - p);
    p = end;
  }
  *next = *p == ',' ? p + 1 : p;
  return f;
}

int parse_line(const char *line, struct row *out) {
  const char *p = line;
  out->ncols = 0;
  while (out->ncols < MAX_COLS) {
    out->col[out->ncols++] = parse_field(p, &p);
    if (!*p) break;
  }
  return out->ncols;
}

void row_free(struct row *r) {
  for (int i = 0; i < r->ncols; i++) free(r->col[i].text);
  r->ncols = 0;
}
