#include <stdio.h>
#include <string.h>
#include "batch.h"

int main(void) {
  int failed = 0;
  char out[128];
  struct queue *q = q_new();
  flush_summary(q, out, sizeof out);
  if (strcmp(out, "0 lines") != 0) { printf("FAIL: empty: %s\n", out); failed++; }
  log_line(q, "boot");
  log_line(q, "disk ok");
  log_line(q, "net up");
  flush_summary(q, out, sizeof out);
  if (strcmp(out, "3 lines, 17 bytes, boot .. net up") != 0) { printf("FAIL: %s\n", out); failed++; }
  q_free(q);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
