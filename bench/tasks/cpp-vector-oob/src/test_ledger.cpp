#include "ledger.hpp"
#include <cstdio>

// A year of postings, days numbered 1..365 as in the bank's statements.
int main() {
  Ledger ledger(365);
  for (int day = 1; day <= 365; day++) {
    for (int k = 0; k < 2; k++) ledger.post(day, (day * 7 + k) % 100);
  }
  std::vector<long> r = ledger.running();
  long expect = 0;
  for (int day = 1; day <= 365; day++) expect += (day * 7) % 100 + (day * 7 + 1) % 100;
  if (r.size() != 365 || r.back() != expect) { std::printf("FAIL running: %ld != %ld\n", r.empty() ? -1 : r.back(), expect); return 1; }
  std::printf("OK\n");
  return 0;
}
