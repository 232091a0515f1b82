"""Screenshots of the main pages of the website, on a desktop and on a phone, for a person to
look at (not a test: nothing is asserted).

    python scripts/screenshots.py [--db kb.sqlite] [--out test-artifacts/screenshots]

Needs Chromium (scripts/install-browser.sh) and the test extras (Playwright).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGES = {
    "home": "/",
    "game": "/g/yugioh",
    "document": "/doc/ygo-damage-step",
    "section": "/doc/fow-cr-8.01/105",
    "search": "/search?q=damage+step",
    "card": "/card/honest",
    "timing": "/timing/yugioh/tcg",
    "ask": "/ask?q=honest+vs+honest",
    "compare": "/compare/fow-basic",
    "diff": "/diff/fow-cr-7.0/fow-cr-8.01",
    "history": "/history/314.1",
}
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {
        "viewport": {"width": 375, "height": 812},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument("--out", type=Path, default=REPO / "test-artifacts" / "screenshots")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from kb.web.serve import running_site

    args.out.mkdir(parents=True, exist_ok=True)
    with running_site(args.db) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for device, options in VIEWPORTS.items():
            context = browser.new_context(**options)
            page = context.new_page()
            for name, path in PAGES.items():
                page.goto(base + path)
                target = args.out / f"{device}-{name}.png"
                page.screenshot(path=str(target), full_page=True, timeout=60_000)
                print(target)
            context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
