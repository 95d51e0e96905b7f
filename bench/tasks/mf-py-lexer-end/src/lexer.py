"""Splits a line of a tiny config language into tokens: (kind, start, end), end exclusive."""

KINDS = (("number", str.isdigit), ("name", str.isalpha), ("space", str.isspace))


def tokens(text):
    out = []
    i = 0
    while i < len(text):
        kind = next((k for k, test in KINDS if test(text[i])), "punct")
        start = i
        i += 1
        if kind != "punct":
            while i < len(text) and dict(KINDS)[kind](text[i]):
                i += 1
            out.append((kind, start, i + 1))
        else:
            out.append((kind, start, i))
    return out
