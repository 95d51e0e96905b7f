"""Which URLs the link previewer may fetch: http(s) only, never internal hosts."""
from urlparts import split

BLOCKED_SCHEMES = {"file", "gopher", "ftp", "data", "javascript"}
BLOCKED_HOSTS = {"localhost", "127.0.0.1", "metadata.internal"}


def allowed(url, base_host="example.org"):
    scheme, netloc, path, query, fragment = split(url)
    if scheme in BLOCKED_SCHEMES:
        return False
    host = netloc.rsplit("@", 1)[-1].split(":", 1)[0].lower()
    if host in BLOCKED_HOSTS:
        return False
    # no scheme and no host: a relative link, resolved against the page's own (allowed) host
    return scheme in ("http", "https", "") and (host or base_host) not in BLOCKED_HOSTS
