"""Renders the dashboard of each user."""
import layout
import settings


def dashboard(user_overrides, title="Dashboard"):
    prefs = settings.profile(user_overrides)
    if prefs.get("compact"):
        # compact pages fit the phone screen: no fixed width
        prefs.pop("width")
        return {"header": layout.header(prefs, title), "columns": 1}
    return {"header": layout.header(prefs, title), "columns": layout.columns(prefs)}
