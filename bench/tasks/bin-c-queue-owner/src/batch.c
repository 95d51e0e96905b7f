#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "batch.h"

/* What a flush saw: the first and the last line, how many lines and bytes. */
struct seen {
  const char *first;
  const char *last;
  size_t count, bytes;
};

static void note(char *item, void *ctx) {
  struct seen *s = ctx;
  if (!s->first) s->first = item;
  s->last = item;
  s->count++;
  s->bytes += strlen(item);
}

void log_line(struct queue *q, const char *line) {
  q_push(q, strdup(line));
}

int flush_summary(struct queue *q, char *out, size_t n) {
  struct seen s = { 0 };
  q_drain(q, note, &s);
  if (!s.count) return snprintf(out, n, "0 lines");
  return snprintf(out, n, "%zu lines, %zu bytes, %s .. %s", s.count, s.bytes, s.first, s.last);
}
