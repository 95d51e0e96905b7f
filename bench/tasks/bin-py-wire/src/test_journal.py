import unittest

import journal


class JournalTest(unittest.TestCase):
    def test_one_source(self):
        self.assertEqual(journal.load(journal.save({"disk": [(100, 1), (250, 2)]})), [(100, 1), (250, 2)])

    def test_sources_merge_in_time_order(self):
        data = journal.save({"disk": [(100, 1), (250, 2)], "net": [(120, 7), (300, 9)]})
        self.assertEqual(journal.load(data), [(100, 1), (120, 7), (250, 2), (300, 9)])

    def test_empty(self):
        self.assertEqual(journal.load(journal.save({})), [])


if __name__ == "__main__":
    unittest.main()
