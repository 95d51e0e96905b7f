"""Page layout from a user's settings."""


def columns(settings):
    """How many 20-character columns fit the page."""
    return max(1, settings["width"] // 20)


def header(settings, title):
    bar = "=" if settings["theme"] == "plain" else "#"
    return f"{bar * 3} {title} {bar * 3}"
