#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"

static int failed;

/* Parses s from a heap copy of exactly its bytes, as a network buffer would hold it: no NUL after it. */
static int parse(const char *s, struct object *o) {
  size_t n = strlen(s);
  char *copy = malloc(n);
  memcpy(copy, s, n);
  int r = json_parse_object(copy, n, o);
  free(copy);
  return r;
}

static void expect(const char *s, int want) {
  struct object o;
  int got = parse(s, &o);
  if (got != want) { printf("FAIL %s: got %d, want %d\n", s, got, want); failed++; }
}

int main(void) {
  struct object o;
  if (parse("{\"name\": \"sbx\", \"runs\": 42}", &o) != 0 || o.n != 2 || strcmp(o.m[0].text, "sbx") != 0 || o.m[1].number != 42) {
    printf("FAIL: a plain object\n"); failed++;
  }
  expect("{}", 0);
  expect("{\"a\": 1", -1);
  expect("{\"a\": 1,}", -1);
  expect("{\"a\": \"x\",", -1);   /* the input ends right after a comma */
  expect("{\"a\": 1, ", -1);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
