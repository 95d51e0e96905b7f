#include <string.h>
#include "json.h"

/* The input and how far the parser is in it; reads go through these helpers or check offset < length. */
struct buffer { const char *content; size_t length; size_t offset; };

#define can_read(b, size) ((b)->offset + (size) <= (b)->length)
#define can_access_at_index(b, index) ((b)->offset + (index) < (b)->length)
#define cannot_access_at_index(b, index) (!can_access_at_index(b, index))
#define at_offset(b) ((b)->content + (b)->offset)

static void skip_whitespace(struct buffer *b) {
  if (cannot_access_at_index(b, 0)) return;
  while (can_access_at_index(b, 0) && (unsigned char)at_offset(b)[0] <= 32) b->offset++;
  if (b->offset == b->length) b->offset--; /* stay on the last character */
}

/* A string at the offset (which the caller checked is readable): its characters into out. */
static int parse_string(struct buffer *b, char *out, size_t max) {
  if (at_offset(b)[0] != '"') return -1;
  b->offset++;
  size_t n = 0;
  while (can_access_at_index(b, 0) && at_offset(b)[0] != '"') {
    if (n + 1 < max) out[n++] = at_offset(b)[0];
    b->offset++;
  }
  if (cannot_access_at_index(b, 0)) return -1;
  out[n] = '\0';
  b->offset++;
  return 0;
}

static int parse_number(struct buffer *b, long *out) {
  long v = 0; int digits = 0, neg = 0;
  if (can_access_at_index(b, 0) && at_offset(b)[0] == '-') { neg = 1; b->offset++; }
  while (can_access_at_index(b, 0) && at_offset(b)[0] >= '0' && at_offset(b)[0] <= '9') {
    v = v * 10 + (at_offset(b)[0] - '0'); b->offset++; digits++;
  }
  *out = neg ? -v : v;
  return digits ? 0 : -1;
}

static int parse_value(struct buffer *b, struct member *m) {
  if (cannot_access_at_index(b, 0)) return -1;
  if (at_offset(b)[0] == '"') { m->is_string = 1; return parse_string(b, m->text, sizeof m->text); }
  m->is_string = 0;
  return parse_number(b, &m->number);
}

static int parse_object(struct buffer *b, struct object *o) {
  o->n = 0;
  if (cannot_access_at_index(b, 0) || at_offset(b)[0] != '{') return -1;
  b->offset++;
  skip_whitespace(b);
  if (can_access_at_index(b, 0) && at_offset(b)[0] == '}') { b->offset++; return 0; } /* empty object */
  if (cannot_access_at_index(b, 0)) return -1;
  /* step back one character so the loop can step over the comma or the brace alike */
  b->offset--;
  do {
    if (o->n == 16) return -1;
    struct member *m = &o->m[o->n];
    /* parse the name of the member */
    b->offset++;
    skip_whitespace(b);
    if (parse_string(b, m->key, sizeof m->key) != 0) return -1;
    skip_whitespace(b);
    if (cannot_access_at_index(b, 0) || at_offset(b)[0] != ':') return -1;
    /* parse the value */
    b->offset++;
    skip_whitespace(b);
    if (parse_value(b, m) != 0) return -1;
    skip_whitespace(b);
    o->n++;
  } while (can_access_at_index(b, 0) && at_offset(b)[0] == ',');
  if (cannot_access_at_index(b, 0) || at_offset(b)[0] != '}') return -1;
  b->offset++;
  return 0;
}

int json_parse_object(const char *text, size_t len, struct object *out) {
  struct buffer b = { text, len, 0 };
  skip_whitespace(&b);
  return parse_object(&b, out);
}
