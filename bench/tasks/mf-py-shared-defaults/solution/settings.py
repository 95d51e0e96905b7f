"""User settings: the site defaults with a user's overrides on top."""

DEFAULTS = {"width": 80, "theme": "plain", "compact": False}


def profile(overrides=None, base=DEFAULTS):
    """The settings of one user: base, then the user's overrides."""
    merged = dict(base)
    merged.update(overrides or {})
    return merged
