"""wire: the compact event-log encoding (shipped as bytecode only)."""


def _varint(n, out):
    if n < 0:
        raise ValueError("cannot encode %d" % n)
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return


def _read_varint(data, i):
    n = shift = 0
    while True:
        b = data[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def _gaps(stamps):
    prev = 0
    for s in stamps:
        yield s - prev
        prev = s


def encode(events):
    """events: a list of (timestamp, code) pairs. Returns bytes."""
    out = bytearray()
    _varint(len(events), out)
    for gap, (_, code) in zip(_gaps([t for t, _ in events]), events):
        _varint(gap, out)
        _varint(code, out)
    return bytes(out)


def decode(data):
    count, i = _read_varint(data, 0)
    events, t = [], 0
    for _ in range(count):
        gap, i = _read_varint(data, i)
        code, i = _read_varint(data, i)
        t += gap
        events.append((t, code))
    return events
