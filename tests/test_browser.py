"""The rules website in a real browser: Playwright drives Debian's Chromium against a real
``kb serve`` on a free loopback port. What a person sees: headings, working links, the rule a
permalink points at, payloads shown as text, pages that fit a phone.

Screenshots of the main pages go to test-artifacts/screenshots/ (git-ignored).
Run only these: pytest -m browser. Chromium: scripts/install-browser.sh.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kb.build import build
from kb.serve import running_site

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
SHOTS = REPO / "test-artifacts" / "screenshots"
XSS_CORPUS = Path(__file__).parent / "fixtures" / "xss_corpus"
CHROMIUM = Path("/usr/bin/chromium")
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
PHONE = {"width": 375, "height": 812}
SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=1">'


@pytest.fixture(scope="module")
def server(built_db: Path) -> Iterator[str]:
    with running_site(built_db) as base:
        yield base


@pytest.fixture(scope="module")
def xss_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("xss-browser") / "xss.sqlite"
    build(XSS_CORPUS, db)
    with running_site(db) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (run scripts/install-browser.sh)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.set_default_timeout(10_000)
    yield p
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    p = context.new_page()
    p.set_default_timeout(10_000)
    yield p
    context.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def target_id(page: Any) -> str | None:
    return page.evaluate("document.querySelector(':target')?.id ?? null")


# ---------------------------------------------------------------------------------------------


def test_home_to_game_to_section_to_rule_permalink(page: Any, server: str) -> None:
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Trading card game rules")
    shot(page, "desktop-home")

    page.get_by_role("link", name="Force of Will", exact=True).click()
    expect(page).to_have_url(server + "/g/fow")
    expect(page.get_by_role("heading", level=1)).to_have_text("Force of Will")
    expect(page.get_by_role("heading", name="Vietnamese", exact=True)).to_be_visible()
    shot(page, "desktop-game")

    title = "Force of Will Comprehensive Rules ver. 8.01"
    card = page.locator("article.doc-card").filter(
        has=page.get_by_role("link", name=title, exact=True)
    )
    link = card.get_by_role("link", name="105 Basic Concept")
    expect(link).to_be_hidden()  # the contents are folded until asked for
    card.locator("summary").click()
    link.click()
    expect(page).to_have_url(server + "/doc/fow-cr-8.01/105")
    expect(page.get_by_role("heading", level=1)).to_have_text("105 Basic Concept")
    rule = page.locator('[id="105.3a"]')
    expect(rule).to_contain_text("The controller of a card is the owner of it.")
    expect(rule).to_contain_text("official rules text")
    expect(rule).to_contain_text("fow-cr-8.01.txt:26")
    shot(page, "desktop-section")

    rule.get_by_role("link", name="105.3a").click()
    expect(page).to_have_url(server + "/doc/fow-cr-8.01/105#105.3a")
    assert target_id(page) == "105.3a"
    expect(rule).to_be_in_viewport()
    highlight = rule.evaluate("e => getComputedStyle(e).backgroundColor")
    other = page.locator('[id="105.1"]').evaluate("e => getComputedStyle(e).backgroundColor")
    assert highlight != other  # the targeted rule stands out

    # Breadcrumbs and the contents lead back up.
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link", name=title).click()
    expect(page).to_have_url(server + "/doc/fow-cr-8.01")
    expect(page.get_by_role("heading", name="Contents")).to_be_visible()
    shot(page, "desktop-document")


def test_a_permalink_far_down_a_long_page_scrolls_to_its_rule(page: Any, server: str) -> None:
    sql = "select section, count(*) as n from rules group by section order by n desc limit 1"
    [biggest] = httpx.get(server + "/kb.json", params={"sql": sql, "_shape": "array"}).json()
    document, slug = biggest["section"].split(":", 1)
    data = httpx.get(f"{server}/doc/{document}/{slug}.json").json()
    last = data["rules"][-1]
    assert len(data["rules"]) > 30
    page.goto(server + last["url"])  # the permalink, which redirects
    expect(page).to_have_url(f"{server}/doc/{document}/{slug}#{last['anchor']}")
    assert target_id(page) == last["anchor"]
    target = page.locator(f'[id="{last["anchor"]}"]')
    expect(target).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 500


def test_search_from_the_home_page(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.get_by_role("searchbox", name="Search the rules").fill("buoc thiet hai")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/search\?q=buoc\+thiet\+hai"))
    expect(page.get_by_role("status")).to_contain_text("for “buoc thiet hai”")
    first = page.locator("ol.hits > li").first
    expect(first).to_contain_text("Bước Thiệt hại")  # accents optional in the query
    expect(first.locator(".hit-text")).to_have_attribute("lang", "vi")
    shot(page, "desktop-search")

    href = first.get_by_role("heading").get_by_role("link").get_attribute("href")
    first.get_by_role("heading").get_by_role("link").click()
    anchor = href.split("#", 1)[1]
    expect(page).to_have_url(server + href)
    assert target_id(page) == anchor
    expect(page.locator(f'[id="{anchor}"]')).to_be_in_viewport()

    # Filters: Force of Will, Vietnamese only.
    page.goto(server + "/search")
    page.get_by_role("searchbox", name="Search the rules").fill("battle")
    page.get_by_label("Game").select_option(label="Force of Will")
    page.get_by_label("Language").select_option(label="Vietnamese")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"game=fow&lang=vi"))
    hits = page.locator("ol.hits > li")
    expect(hits.first).to_be_visible()
    assert hits.count() == page.locator('ol.hits .hit-text[lang="vi"]').count()
    expect(page.get_by_label("Game")).to_have_value("fow")


def test_payloads_in_rule_text_stay_inert_text(page: Any, xss_server: str) -> None:
    dialogs: list[str] = []
    image_requests: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("request", lambda r: image_requests.append(r.url) if r.url.endswith("/x") else None)

    page.goto(xss_server + "/rule/xss-cr:101.2")
    expect(page).to_have_url(xss_server + "/doc/xss-cr/101#101.2")
    expect(page.get_by_text(SCRIPT)).to_be_visible()
    expect(page.get_by_text(IMG)).to_be_visible()
    expect(page.get_by_text("[click](javascript:window.__xss=1)")).to_be_visible()
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.locator("script").count() == 0
    assert page.locator("img").count() == 0
    assert page.locator('a[href^="javascript"]').count() == 0
    # The one real link in the text is the cited rule number, and it works.
    page.get_by_role("link", name="101.1", exact=True).last.click()
    expect(page).to_have_url(xss_server + "/doc/xss-cr/101#101.1")
    assert target_id(page) == "101.1"
    shot(page, "desktop-payloads")

    page.goto(xss_server + "/search?q=script+tag")
    expect(page.locator("ol.hits")).to_contain_text(SCRIPT)
    page.goto(xss_server + "/g/xss")
    expect(page.get_by_role("link", name="Payload rules <b>not bold</b>")).to_be_visible()
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert not dialogs and not image_requests


MAIN_PAGES = {
    "home": "/",
    "game": "/g/yugioh",
    "document": "/doc/fow-cr-8.01",
    "section": "/doc/fow-cr-8.01/105",
    "section-vi": "/doc/ygo-damage-step/buoc-thiet-hai",
    "search": "/search?q=damage+step",
    "rule-choices": "/rule/105.3a",
}


@pytest.mark.parametrize("name", MAIN_PAGES)
def test_pages_fit_a_phone(phone: Any, server: str, name: str) -> None:
    phone.goto(server + MAIN_PAGES[name])
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    phone.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    widths = phone.evaluate(
        "({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,"
        " view: window.innerWidth})"
    )
    assert widths["view"] == PHONE["width"]
    assert widths["doc"] <= widths["view"] and widths["body"] <= widths["view"], widths
    # Nothing sticks out of the screen on the right.
    wide = phone.evaluate(
        """() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + '.' + e.className).slice(0, 5)"""
    )
    assert wide == []
    size = phone.evaluate("parseFloat(getComputedStyle(document.querySelector('main')).fontSize)")
    assert size >= 16
    # The site menu and search are reachable without zooming.
    expect(
        phone.get_by_role("navigation", name="Site").get_by_role("link", name="Search")
    ).to_be_in_viewport()
    shot(phone, f"phone-{name}")


def test_datasette_tables_are_one_click_away(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Tables").click()
    expect(page).to_have_url(server + "/kb")
    page.get_by_role("link", name="rules", exact=True).first.click()
    expect(page).to_have_url(re.compile(r"/kb/rules$"))
    expect(page.locator("table.rows-and-columns")).to_be_visible()
    page.get_by_role("link", name="Rules home").click()
    expect(page).to_have_url(server + "/")
