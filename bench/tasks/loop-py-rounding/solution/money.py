"""Prices as decimal strings ("2.675") to integer cents, rounding halves up as the till does."""
from decimal import ROUND_HALF_UP, Decimal


def to_cents(price):
    return int((Decimal(price) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def total_cents(prices):
    return sum(to_cents(p) for p in prices)
