"""Template variables shared by the rules pages: navigation, labels, the stylesheet URL.

Datasette loads this file itself (site/ is not a package).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from datasette import hookimpl
from datasette.app import Datasette

from kb.render import authority
from kb.web_common import (
    ask_url,
    card_search_url,
    compare_url,
    diff_url,
    language_name,
    search_url,
    timing_url,
)

STYLESHEET = Path(__file__).resolve().parent.parent / "static" / "site.css"
# Changes when the stylesheet does, so browsers never keep a stale copy.
_CSS_VERSION = hashlib.sha256(STYLESHEET.read_bytes()).hexdigest()[:10]

# The site's navigation, in order. EXTENSION POINT: when a page in routes.py stops being a
# placeholder, set its entry's "ready" to True (or add one) and it appears in the menu.
NAV: list[dict[str, Any]] = [
    {"label": "Home", "url": "/", "ready": True},
    {"label": "Search", "url": search_url(), "ready": True},
    {"label": "Ask", "url": ask_url(), "ready": True},
    {"label": "Cards", "url": card_search_url(), "ready": True},
    {"label": "Timing", "url": timing_url(), "ready": True},
    {"label": "Translations", "url": compare_url(), "ready": True},
    {"label": "Versions", "url": diff_url(), "ready": True},
    {"label": "Tables", "url": "/kb", "ready": True},
]


@hookimpl
def extra_template_vars(datasette: Datasette) -> dict[str, Any]:
    return {
        "kb_site_title": datasette.metadata("title") or "Rules",
        "kb_nav": [item for item in NAV if item["ready"]],
        "kb_css_url": f"/static/site.css?v={_CSS_VERSION}",
        "provenance_label": authority,
        "language_name": language_name,
    }
