import pytest

from calc import clamp, mean


@pytest.mark.parametrize("n", range(200))
def test_clamp_in_range(n):
    print(f"clamp check {n:03d}: inputs within bounds, nothing to report here")
    assert clamp(n, 0, 1000) == n


def test_mean_of_three():
    assert mean([1, 2, 3]) == 2
