"""Splits a URL into scheme, netloc, path, query and fragment (the project's own, no urllib)."""

SCHEME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-."
# The WHATWG URL standard's "C0 control or space": U+0000 to U+0020.
C0_CONTROL_OR_SPACE = "".join(chr(c) for c in range(0x21))


def split(url):
    """(scheme, netloc, path, query, fragment); scheme lower-cased, missing parts empty."""
    url = url.lstrip(C0_CONTROL_OR_SPACE)  # WHATWG: remove leading C0 control or space
    scheme = ""
    i = url.find(":")
    if i > 0 and url[0].isalpha() and all(c in SCHEME_CHARS for c in url[:i]):
        scheme, url = url[:i].lower(), url[i + 1:]
    netloc = ""
    if url[:2] == "//":
        end = min((j for j in (url.find(c, 2) for c in "/?#") if j >= 0), default=len(url))
        netloc, url = url[2:end], url[end:]
    fragment = ""
    if "#" in url:
        url, fragment = url.split("#", 1)
    query = ""
    if "?" in url:
        url, query = url.split("?", 1)
    return scheme, netloc, url, query, fragment
