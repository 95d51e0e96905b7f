"""Prices as decimal strings ("2.675") to integer cents, rounding halves up as the till does."""


def to_cents(price):
    return int(float(price) * 100)


def total_cents(prices):
    return sum(to_cents(p) for p in prices)
