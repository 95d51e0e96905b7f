"""Closed integer intervals [start, end] and their union."""


def merge(intervals):
    """The union of the intervals as a sorted list of disjoint intervals."""
    out = []
    for start, end in sorted(intervals):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def covered(intervals):
    """How many integers the intervals cover together."""
    return sum(end - start + 1 for start, end in merge(intervals))
