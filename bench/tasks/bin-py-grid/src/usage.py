"""The monthly usage report: one row per user, sorted by use."""
import grid

HEADER = ["user", "runs", "share"]


def report(counts):
    """counts: {user: runs}. The table of users by runs, with each one's share of the total."""
    total = sum(counts.values()) or 1
    rows = []
    for user, runs in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        share = f"{100 * runs / total:.0f}%"
        rows.append([user, runs, share])
    return grid.render(HEADER, rows)
