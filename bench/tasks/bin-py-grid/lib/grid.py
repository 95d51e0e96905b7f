"""grid: plain-text tables (shipped as bytecode only)."""


def _widths(header, rows):
    widths = [len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    return widths


def _line(cells, widths):
    return " | ".join(cell.ljust(w) for cell, w in zip(cells, widths)).rstrip()


def render(header, rows):
    """header: column titles; rows: lists of cells. Returns the table's text."""
    rows = [list(r) for r in rows]
    widths = _widths(header, rows)
    lines = [_line(header, widths), "-+-".join("-" * w for w in widths)]
    lines += [_line(r, widths) for r in rows]
    return "\n".join(lines) + "\n"
