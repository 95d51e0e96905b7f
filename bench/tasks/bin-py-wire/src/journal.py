"""The device journal: events from every source, saved in the wire format."""
import wire


def save(sources):
    """sources: {name: [(timestamp, code), ...]}. Returns the journal's bytes."""
    events = []
    for name in sorted(sources):
        events.extend(sources[name])
    return wire.encode(events)


def load(data):
    return wire.decode(data)
