/* A program that logs ~30 KB of progress, then reads a freed record: the raw output is long, the bug is
 * one line (lookup() at main.c:24). Built with -fsanitize=address, it stops with AddressSanitizer's report. */
#include <stdio.h>
#include <stdlib.h>

struct record { int id; int value; };

static struct record *make_record(int id) {
  struct record *r = malloc(sizeof *r);
  r->id = id;
  r->value = id * 7;
  return r;
}

static void drop_record(struct record *r) { free(r); }

static void progress(int step) {
  printf("progress: step %04d of 0330 -- processing block %04d, checksum %08x, all good so far\n",
         step, step * 3, (unsigned)(step * 2654435761u));
}

static int lookup(struct record *r) {
  fflush(stdout);
  return r->value;
}

int main(void) {
  struct record *r = make_record(42);
  for (int i = 1; i <= 330; i++) progress(i);
  drop_record(r);
  printf("value: %d\n", lookup(r));
  return 0;
}
