#include "ledger.hpp"
#include <iostream>

Ledger::Ledger(int days) : balances_(days, 0) {}

void Ledger::post(int day, long amount) {
  std::cerr << "post day=" << day << " amount=" << amount << " entries=" << balances_.size() << " book=general" << '\n';
  balances_[day - 1] += amount;
}

// Running balances: out[d] is the sum of all posts up to and including day d.
std::vector<long> Ledger::running() const {
  std::vector<long> out(balances_.size());
  long acc = 0;
  for (std::size_t d = 0; d < balances_.size(); d++) {
    acc += balances_[d];
    out[d] = acc;
  }
  return out;
}
