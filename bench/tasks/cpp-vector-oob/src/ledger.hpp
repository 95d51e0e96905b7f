#pragma once
#include <vector>

class Ledger {
 public:
  explicit Ledger(int days);
  void post(int day, long amount);
  std::vector<long> running() const;

 private:
  std::vector<long> balances_;
};
