#include <stdio.h>
#include <string.h>
#include "session.h"

static int failed;
static void expect(const char *got, const char *want) {
  if (strcmp(got, want) != 0) { printf("FAIL: got \"%s\", want \"%s\"\n", got, want); failed++; }
}

int main(void) {
  struct cache c;
  cache_init(&c);
  struct session alice, bob, carol;
  char line[64];

  session_open(&alice, &c, "alice");
  render(&alice, line, sizeof line);
  expect(line, "Hello, alice!");

  session_open(&bob, &c, "bob");
  session_open(&carol, &c, "carol");
  render(&carol, line, sizeof line);
  expect(line, "Welcome, carol!");

  /* alice's page is redrawn after two other users logged in */
  render(&alice, line, sizeof line);
  expect(line, "Hello, alice!");
  render(&bob, line, sizeof line);
  expect(line, "Hi, bob!");

  session_close(&alice);
  session_close(&bob);
  session_close(&carol);
  cache_clear(&c);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
