import unittest

from intervals import covered, merge


class MergeTest(unittest.TestCase):
    def test_disjoint(self):
        self.assertEqual(merge([(5, 6), (1, 2)]), [(1, 2), (5, 6)])

    def test_overlapping(self):
        self.assertEqual(merge([(1, 4), (3, 8)]), [(1, 8)])

    def test_touching_share_an_endpoint(self):
        self.assertEqual(merge([(1, 3), (3, 5)]), [(1, 5)])

    def test_covered_counts_shared_point_once(self):
        self.assertEqual(covered([(1, 3), (3, 5), (10, 10)]), 6)


if __name__ == "__main__":
    unittest.main()
