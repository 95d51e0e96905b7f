import unittest

from highlight import highlight


class HighlightTest(unittest.TestCase):
    def test_assignment(self):
        self.assertEqual(highlight("width=80;"), "aaaaapnnp")

    def test_spaces(self):
        self.assertEqual(highlight("x = 42 ;"), "a p nn p")

    def test_ends_in_a_name(self):
        self.assertEqual(highlight("mode=dark"), "aaaapaaaa")


if __name__ == "__main__":
    unittest.main()
