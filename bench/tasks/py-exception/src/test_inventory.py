import unittest

from inventory import Inventory


class InventoryTest(unittest.TestCase):
    def setUp(self):
        self.inv = Inventory()
        self.inv.add("bolt", 10, reorder_at=4)
        self.inv.add("nut", 3, reorder_at=5)

    def test_add_and_remove(self):
        self.inv.remove("bolt", 7)
        self.assertEqual(self.inv.quantity("bolt"), 3)

    def test_remove_too_many(self):
        with self.assertRaises(ValueError):
            self.inv.remove("nut", 4)

    def test_unknown_item_has_none(self):
        self.assertEqual(self.inv.quantity("washer"), 0)

    def test_reorder(self):
        self.assertEqual(self.inv.to_reorder(), ["nut"])


if __name__ == "__main__":
    unittest.main()
