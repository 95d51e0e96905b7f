"""Paints each character of a line with the style of the token it belongs to; blanks stay blank."""

STYLE = {"number": "n", "name": "a", "punct": "p"}


def paint(text, toks):
    styles = [" "] * len(text)
    for kind, start, end in toks:
        if kind == "space":
            continue
        for i in range(start, end):
            styles[i] = STYLE[kind]
    return "".join(styles)
