#include <stdio.h>
#include "queue.h"

int main(void) {
  struct queue q = {0};
  int failed = 0;
  for (int i = 1; i <= 5; i++) queue_push(&q, i * 10);
  for (int i = 1; i <= 3; i++) {
    int v = queue_pop(&q);
    if (v != i * 10) { printf("FAIL pop %d: got %d\n", i, v); failed++; }
  }
  if (q.size != 2) { printf("FAIL size %zu\n", q.size); failed++; }
  queue_clear(&q);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
