"""What kind of device a browser runs on, for "Hosted by the TV" (companion/web/hosting.py)."""

from __future__ import annotations

import re

from flask import request

# What kind of device a browser is, by its User-Agent, for "Hosted by the TV": the first that matches.
KINDS = (
    ("tv", re.compile(r"smart-?tv|hbbtv|tizen|web0s|webos|netcast|bravia|crkey|\baft[a-z]|googletv|android tv|roku|viera", re.I)),
    ("tablet", re.compile(r"ipad|tablet|kindle|silk/|playbook|android(?!.*mobi)", re.I)),
    ("phone", re.compile(r"mobi|iphone|ipod", re.I)),
    ("computer", re.compile(r"^mozilla/", re.I)),
)


def device_of(user_agent: str | None) -> str | None:
    """What kind of device a browser runs on ("tv", "tablet", "phone", "computer"), or None for
    a client that is no browser. Four patterns by hand: a user-agent library (ua-parser) names
    models and browsers, not these kinds, and a wrong guess changes only a label."""
    agent = (user_agent or "")[:512]
    return next((kind for kind, pattern in KINDS if pattern.search(agent)), None)


def this_device() -> str | None:
    """What kind of device the current request comes from."""
    return device_of(request.headers.get("User-Agent"))
