import unittest

from money import to_cents, total_cents


class MoneyTest(unittest.TestCase):
    def test_whole(self):
        self.assertEqual(to_cents("3.10"), 310)

    def test_half_cent_rounds_up(self):
        self.assertEqual(to_cents("2.675"), 268)

    def test_eighth(self):
        self.assertEqual(to_cents("0.125"), 13)

    def test_total(self):
        self.assertEqual(total_cents(["1.005", "2.675", "0.10"]), 379)


if __name__ == "__main__":
    unittest.main()
