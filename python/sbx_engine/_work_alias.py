"""The work dir's host path in a log, read as /work (src/engine/work-alias.ts, the same semantics): the sandbox
shows the work dir there too, so a tool run through it prints `/home/u/proj/src/x.c:3:1: error`. The verdict
names it as it names /work's paths, and the same run at two host paths gives the same verdict. Whole names
only (not the head of `/home/u/proj2`, not inside `/opt/home/u/proj`), a match cut between two chunks included."""
import os

SLASH = 0x2F
WORK = b"/work"


def _in_name(b: int) -> bool:
    """A byte that continues a path component: the host path must not be the head of a longer name."""
    return 0x30 <= b <= 0x39 or 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A or b in (0x2E, 0x2D, 0x5F) or b >= 0x80


class AliasRewriter:
    """push(chunk) gives the bytes that are final now, the host path replaced; the rest is held for the next
    push; end() gives what is held, at the end of the input."""

    def __init__(self, host: str):
        path = host[:-1] if host.endswith("/") else host
        self._pat = os.fsencode(path)
        self._held = b""
        self._before = 0  # the byte before `held` (0: the start of the input)

    def push(self, chunk: bytes) -> bytes:
        buf = self._held + bytes(chunk) if self._held else bytes(chunk)
        # A match may start in the last n bytes and run past the chunk: those wait for the next one.
        return self._scan(buf, max(0, len(buf) - len(self._pat)), False)

    def end(self) -> bytes:
        out = self._scan(self._held, len(self._held), True)
        self._held = b""
        return out

    def _scan(self, buf: bytes, upto: int, last: bool) -> bytes:
        pat, n = self._pat, len(self._pat)
        parts = []
        start = 0
        i = buf.find(pat, 0, upto + n - 1) if upto > 0 else -1
        while 0 <= i < upto:
            prev = buf[i - 1] if i > 0 else self._before
            nxt = buf[i + n] if i + n < len(buf) else (0 if last else -1)
            if nxt < 0:
                break  # cannot tell yet: held
            if prev == SLASH or _in_name(prev) or _in_name(nxt):
                i = buf.find(pat, i + 1, upto + n - 1)
                continue
            parts.append(buf[start:i])
            parts.append(WORK)
            start = i + n
            i = buf.find(pat, start, upto + n - 1)
        keep = max(start, min(upto, len(buf)))
        parts.append(buf[start:keep])
        self._before = buf[keep - 1] if keep > 0 else self._before
        self._held = buf[keep:]
        return b"".join(parts)


def alias_rewriter(host):
    """A rewriter of `host` (an absolute path, not / nor /work) to /work, or None when there is nothing to rewrite."""
    if not host or host in ("/", "/work") or not host.startswith("/"):
        return None
    return AliasRewriter(host)


def through_alias(host, data: bytes) -> bytes:
    """data, whole, with `host` read as /work (the rewriter's rule)."""
    rw = alias_rewriter(host)
    return data if rw is None else rw.push(data) + rw.end()
