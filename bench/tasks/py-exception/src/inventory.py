"""A small stock ledger: items with quantities and reorder levels."""


class Inventory:
    def __init__(self):
        self.stock = {}
        self.reorder = {}

    def add(self, item, qty, reorder_at=0):
        self.stock[item] = self.stock.get(item, 0) + qty
        self.reorder[item] = reorder_at

    def remove(self, item, qty):
        if self.stock.get(item, 0) < qty:
            raise ValueError(f"not enough {item}")
        self.stock[item] -= qty

    def quantity(self, item):
        return self.stock[item]

    def to_reorder(self):
        return sorted(i for i, q in self.stock.items() if q <= self.reorder[i])
