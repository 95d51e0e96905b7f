#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"

int main(void) {
  const char *csv[] = {
    "id,city,note",
    "1,Oslo,cold",
    "2,\"Rio de Janeiro, RJ\",warm",
    "3,Lima,\"dry, mild\"",
  };
  struct row rows[4];
  for (int i = 0; i < 4; i++) parse_line(csv[i], &rows[i]);

  int failed = 0;
  if (rows[2].ncols != 3 || strcmp(rows[2].col[1].text, "Rio de Janeiro, RJ") != 0) { printf("FAIL: quoted field\n"); failed++; }

  char *t = format_table(rows, 4);
  const char *want =
    "id city               note     \n"
    "1  Oslo               cold     \n"
    "2  Rio de Janeiro, RJ warm     \n"
    "3  Lima               dry, mild\n";
  if (strcmp(t, want) != 0) { printf("FAIL: table\n%s---\nwant\n%s", t, want); failed++; }
  free(t);
  for (int i = 0; i < 4; i++) row_free(&rows[i]);
  printf("%s\n", failed ? "FAILED" : "OK");
  return failed ? 1 : 0;
}
