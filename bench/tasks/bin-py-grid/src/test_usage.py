import unittest

from usage import report


class ReportTest(unittest.TestCase):
    def test_report(self):
        self.assertEqual(
            report({"ann": 12, "bo": 30, "cy": 8}),
            "user | runs | share\n"
            "-----+------+------\n"
            "bo   | 30   | 60%\n"
            "ann  | 12   | 24%\n"
            "cy   | 8    | 16%\n",
        )

    def test_nobody(self):
        self.assertEqual(report({}), "user | runs | share\n-----+------+------\n")


if __name__ == "__main__":
    unittest.main()
