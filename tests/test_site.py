"""The rules website through Datasette's test client: every page, its JSON, and Datasette's own
pages, against the real corpus (and a corpus of HTML payloads). Fast: no server, no browser.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from click.testing import CliRunner
from datasette.utils import tilde_encode
from datasette.views.base import DatasetteError

import queries
from kb import KnowledgeBase
from kb.cli.commands import cli
from kb.lookups.compare import compare as compare_rows
from kb.lookups.variantdiff import variant_diff
from kb.store.build import build
from kb.store.db import run
from kb.web.html import rule_html
from kb.web.pages import ask as ask_pages
from kb.web.pages import cards as card_pages
from kb.web.pages import compare as compare_pages
from kb.web.pages import history as history_pages
from kb.web.pages import rules as rule_pages
from kb.web.pages import timing as timing_pages
from kb.web.serve import ServeError, make_datasette, serve_site
from kb.web.views import query

XSS_CORPUS = Path(__file__).parent / "fixtures" / "xss_corpus"
SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=1">'


class Site:
    """A Datasette instance of the website with a synchronous ``get`` for tests."""

    def __init__(self, db: Path) -> None:
        self.ds = make_datasette(db)
        self.runner = asyncio.Runner()

    def get(self, path: str) -> httpx.Response:
        async def fetch() -> httpx.Response:
            await self.ds.invoke_startup()
            return await self.ds.client.get(path)

        return self.runner.run(fetch())

    def page(self, path: str) -> Page:
        response = self.get(path)
        assert response.status_code == 200, (path, response.status_code, response.text[:500])
        assert response.headers["content-type"].startswith("text/html")
        return Page(response.text)

    def json(self, path: str) -> Any:
        response = self.get(path)
        assert response.status_code == 200, (path, response.status_code, response.text[:500])
        assert response.headers["content-type"].startswith("application/json")
        return response.json()


class Page(HTMLParser):
    """A parsed page: its elements (tag, attributes, text inside) and its visible text."""

    VOID = {"meta", "link", "input", "img", "br", "hr", "source", "wbr"}

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.html = html
        self.elements: list[dict[str, Any]] = []
        self._open: list[dict[str, Any]] = []
        self._skip = 0
        self.text_parts: list[str] = []
        self.feed(html)
        self.text = " ".join(" ".join(self.text_parts).split())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = {"tag": tag, "attrs": {k: v or "" for k, v in attrs}, "text": []}
        self.elements.append(element)
        if tag in ("script", "style", "title"):
            self._skip += 1
        if tag not in self.VOID:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "title"):
            self._skip -= 1
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i]["tag"] == tag:
                del self._open[i:]
                break

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element["text"].append(data)
        if not self._skip:
            self.text_parts.append(data)

    def find(self, tag: str = "", **attrs: str) -> list[dict[str, Any]]:
        """Elements with this tag (any if empty) whose attributes equal ``attrs``
        (``class_`` matches one class among several)."""
        out = []
        for e in self.elements:
            if tag and e["tag"] != tag:
                continue
            ok = True
            for key, value in attrs.items():
                if key == "class_":
                    ok = ok and value in e["attrs"].get("class", "").split()
                else:
                    ok = ok and e["attrs"].get(key.replace("_", "-")) == value
            if ok:
                out.append(e)
        return out

    def one(self, tag: str = "", **attrs: str) -> dict[str, Any]:
        found = self.find(tag, **attrs)
        assert len(found) == 1, (tag, attrs, len(found))
        return found[0]

    def links(self) -> dict[str, str]:
        """Link text -> href, for the links of the page."""
        return {text_of(a): a["attrs"].get("href", "") for a in self.find("a")}


def inline_scripts(page: Page) -> list[dict[str, Any]]:
    """Scripts other than the site's own file (kb/web/static/site.js): none may come from
    rule text, and the site writes none inline."""
    return [
        e for e in page.find("script") if not e["attrs"].get("src", "").startswith("/-/kb-static/")
    ]


def text_of(element: dict[str, Any]) -> str:
    return " ".join("".join(element["text"]).split())


@pytest.fixture(scope="module")
def site(built_db: Path) -> Iterator[Site]:
    s = Site(built_db)
    yield s
    s.runner.close()


@pytest.fixture(scope="module")
def xss_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("xss") / "xss.sqlite"
    build(XSS_CORPUS, path)
    return path


@pytest.fixture(scope="module")
def xss_site(xss_db: Path) -> Iterator[Site]:
    s = Site(xss_db)
    yield s
    s.runner.close()


# ---------------------------------------------------------------------------------------------
# Home, game, document


def test_home_shows_games_search_box_and_what_the_corpus_holds(
    site: Site, conn: sqlite3.Connection
) -> None:
    page = site.page("/")
    assert text_of(page.one("h1")) == "Trading card game rules"
    forms = page.find("form", role="search")
    assert {f["attrs"]["action"] for f in forms} == {"/search"}
    assert page.one("form", class_="site-search")  # the header's, on every page
    assert page.find("input", name="q", type="search")
    links = page.links()
    assert links["Force of Will"] == "/g/fow"
    assert links["Yu-Gi-Oh!"] == "/g/yugioh"
    rules = conn.execute("select count(*) from rules").fetchone()[0]
    documents = conn.execute("select count(*) from documents").fetchone()[0]
    assert f"{documents} documents" in page.text
    assert f"{rules} rules" in page.text
    assert "Vietnamese" in page.text and "English" in page.text
    assert page.one("link", rel="alternate")["attrs"]["href"] == "/.json"

    data = site.json("/.json")
    assert data["totals"]["rules"] == rules
    assert {g["id"] for g in data["games"]} == {r[0] for r in conn.execute("select id from games")}
    assert {g["id"] for g in data["games"]} > {"fow", "vanguard", "yugioh"}
    assert {lang["lang"] for lang in data["languages"]} == {"en", "vi", "zh"}
    assert sum(r["rules"] for r in data["by_game_language"]) == rules


def test_game_page_groups_documents_by_language_and_variant(site: Site) -> None:
    page = site.page("/g/fow")
    assert text_of(page.one("h1")) == "Force of Will"
    assert [text_of(h) for h in page.find("h2")] == ["English", "Vietnamese"]
    links = page.links()
    assert links["Force of Will Comprehensive Rules ver. 8.01"] == "/doc/fow-cr-8.01"
    assert page.find("a", href="/doc/fow-cr-8.01/105")
    assert page.find("a", href="/doc/fow-basic-vi-mt1")

    data = site.json("/g/fow.json")
    langs = {g["lang"]: g for g in data["languages"]}
    assert [v["variant"] for v in langs["vi"]["variants"]] == ["vi-mt1", "vi-mt2"]
    cr = next(
        d for v in langs["en"]["variants"] for d in v["documents"] if d["id"] == "fow-cr-8.01"
    )
    overview = cr["toc"]["children"][0]
    assert overview["number"] == "100"
    assert "/doc/fow-cr-8.01/105" in [c["url"] for c in overview["children"]]


def test_document_page_is_a_table_of_contents_with_source_and_provenance(site: Site) -> None:
    page = site.page("/doc/fow-cr-8.01")
    assert text_of(page.one("h1")) == "Force of Will Comprehensive Rules ver. 8.01"
    assert text_of(page.one("a", href="/doc/fow-cr-8.01/105")) == "105 Basic Concept"
    assert "official rules text" in page.text
    assert "Comprehensive Rules ver. 8.01, last update 2018-09-05" in page.text
    assert "fow-cr-8.01.txt" not in page.text  # the file is in the JSON, not on screen
    assert site.json("/doc/fow-cr-8.01.json")["document"]["file"] == "fow-cr-8.01.txt"

    # The id has a dot; ".json" after it is still the JSON twin.
    data = site.json("/doc/fow-cr-8.01.json")
    assert data["document"]["id"] == "fow-cr-8.01"
    assert data["document"]["provenance"] == "official"
    assert data["toc"]["children"][0]["title"] == "Overview"


# ---------------------------------------------------------------------------------------------
# Section pages


def test_section_page_shows_each_rule_with_anchor_permalink_provenance_era_and_source(
    site: Site,
) -> None:
    page = site.page("/doc/fow-cr-8.01/105")
    assert text_of(page.one("h1")) == "105 Basic Concept"
    rule = page.one("article", id="105.3a")
    assert "The controller of a card is the owner of it." in text_of(rule)
    assert "official rules text" in text_of(rule)
    assert "2018 (effective 2018-09-21)" in text_of(rule)
    assert "line 26" in text_of(rule) and "fow-cr-8.01.txt" not in text_of(rule)
    permalink = page.one("a", href="/rule/fow-cr-8.01:105.3a")
    assert text_of(permalink) == "105.3a"
    assert page.find("div", class_="rule-body", lang="en")
    crumbs = page.one("nav", aria_label="Breadcrumb")
    assert "Overview" in text_of(crumbs)
    assert page.find("a", rel="next", href="/doc/fow-cr-8.01/200")
    assert page.find("a", rel="prev", href="/doc/fow-cr-8.01/104")

    data = site.json("/doc/fow-cr-8.01/105.json")
    assert data["section"]["id"] == "fow-cr-8.01:105"
    by_id = {r["id"]: r for r in data["rules"]}
    r = by_id["fow-cr-8.01:105.3a"]
    assert r["anchor"] == "105.3a"
    assert r["url"] == "/rule/fow-cr-8.01:105.3a"
    assert r["source"] == "fow-cr-8.01.txt:26"
    assert r["provenance"] == "official"
    assert "<p>" not in str(data)  # JSON carries text, not HTML


def test_rule_numbers_in_text_link_to_those_rules(site: Site, conn: sqlite3.Connection) -> None:
    # A rule of 8.01 citing, in parentheses, a rule of another section.
    citing, cited, section = conn.execute(
        """select r.section, c.id, cs.slug
        from rules r join rules c on c.document = r.document and c.section != r.section
          and instr(r.text, '(' || c.number || ')') > 0
        join sections cs on cs.id = c.section
        where r.document = 'fow-cr-8.01' and c.number != ''
        order by r.seq limit 1"""
    ).fetchone()
    page = site.page(f"/doc/fow-cr-8.01/{citing.split(':')[1]}")
    anchor = cited.split(":", 1)[1]
    link = page.one("a", href=f"/doc/fow-cr-8.01/{section}#{anchor}")
    assert text_of(link) == anchor
    assert "rule-ref" in link["attrs"]["class"]


def test_vietnamese_rules_are_marked_as_vietnamese(site: Site) -> None:
    page = site.page("/doc/ygo-damage-step/buoc-thiet-hai")
    assert page.one("h1")["attrs"]["lang"] == "vi"
    # Each rule carries its own detected language (a list of English card names stays "en").
    rules = site.json("/doc/ygo-damage-step/buoc-thiet-hai.json")["rules"]
    langs = [page.one("article", id=r["anchor"]) for r in rules]
    assert [r["lang"] for r in rules].count("vi") >= len(rules) - 1
    for rule, article in zip(rules, langs, strict=True):
        assert page.find("div", class_="rule-body", lang=rule["lang"])
        assert rule["text"][:20] in text_of(article)
    assert "Bước Thiệt hại" in page.text
    assert page.one("html")["attrs"]["lang"] == "en"  # the UI is English


def test_variant_switcher_links_same_section_or_contents(site: Site) -> None:
    # The root section exists in every variant: same section.
    top = site.page("/doc/fow-basic/top")
    switcher = top.one("nav", aria_label="Languages and variants")
    assert "English · original" in text_of(switcher)
    assert top.find("a", href="/doc/fow-basic-vi-mt1/top", hreflang="vi")
    assert top.find("a", href="/doc/fow-basic-vi-mt2/top", hreflang="vi")
    # "draw-phase" has no twin in the translations: their contents instead.
    draw = site.page("/doc/fow-basic/draw-phase")
    assert draw.find("a", href="/doc/fow-basic-vi-mt1", hreflang="vi")
    # And back from a translation to its original.
    vi = site.page("/doc/fow-basic-vi-mt1/top")
    assert vi.find("a", href="/doc/fow-basic/top", hreflang="en")

    data = site.json("/doc/fow-basic/draw-phase.json")
    v = {x["document"]: x for x in data["variants"]}
    assert v["fow-basic"]["current"] and not v["fow-basic-vi-mt1"]["same_section"]


def test_documents_without_variants_show_no_switcher(site: Site) -> None:
    page = site.page("/doc/fow-cr-8.01/105")
    assert not page.find("nav", aria_label="Languages and variants")


# ---------------------------------------------------------------------------------------------
# Rule permalinks


def test_rule_permalink_redirects_to_the_rule_on_its_section_page(site: Site) -> None:
    response = site.get("/rule/fow-cr-8.01:105.3a")
    assert response.status_code == 302
    assert response.headers["location"] == "/doc/fow-cr-8.01/105#105.3a"
    slug_rule = site.get("/rule/ygo-damage-step:van-de-honest.5")
    assert slug_rule.headers["location"] == "/doc/ygo-damage-step/van-de-honest#van-de-honest.5"

    data = site.json("/rule/fow-cr-8.01:105.3a.json")
    assert data["place"] == "/doc/fow-cr-8.01/105#105.3a"
    assert data["rule"]["text"] == "The controller of a card is the owner of it."
    assert data["rule"]["provenance"] == "official"


def test_a_bare_rule_number_lists_every_document_that_has_it(site: Site) -> None:
    data = site.json("/rule/105.3a.json")  # the current version first (it is the one opened)
    assert [c["document"] for c in data["choices"]] == ["fow-cr-8.01", "fow-cr-7.0"]
    assert data["place"] == "/doc/fow-cr-8.01/105#105.3a"
    page = site.page("/rule/314.3")  # only the old version has it
    assert text_of(page.one("h1")) == "Rule 314.3"


# ---------------------------------------------------------------------------------------------
# Search


def test_search_finds_rules_in_any_language_and_links_to_them(site: Site) -> None:
    page = site.page("/search?q=buoc+thiet+hai&all=1")
    first = page.find("ol", class_="hits")[0]
    assert "Bước Thiệt hại" in text_of(first)
    hit_link = page.find("h2")[0]
    assert hit_link
    data = site.json("/search.json?q=buoc+thiet+hai")
    assert data["hits"], data
    top = data["hits"][0]
    assert top["lang"] == "vi"
    assert top["url"].startswith("/doc/ygo-damage-step/") and "#" in top["url"]
    assert page.find("a", href=top["url"])
    # Without all=1, the words name the Damage Step: its rules, its glossary card beside.
    named = site.get("/search?q=buoc+thiet+hai")
    assert named.status_code == 200 and 'href="/glossary/yugioh/damage-step"' in named.text
    # The same ranking as the CLI's `kb search`.
    assert site.json("/search.json?q=honest&limit=5")["hits"][0]["id"]


def test_search_filters_and_odd_input(site: Site) -> None:
    data = site.json("/search.json?q=battle&game=fow&lang=vi")
    assert data["hits"]
    assert {h["lang"] for h in data["hits"]} == {"vi"}
    assert {h["game"] for h in data["hits"]} == {"fow"}
    page = site.page("/search?q=battle&game=fow&lang=vi&all=1")
    assert page.one("option", value="fow")["attrs"].get("selected") is not None
    # FTS5 syntax is searched as text, never an error.
    for q in ['"NEAR(', "title:*", "AND OR NOT", "%22%29%28"]:
        assert site.get(f"/search?q={q}").status_code == 200
        assert site.get(f"/search.json?q={q}").status_code == 200
    empty = site.json("/search.json")
    assert empty["hits"] == [] and empty["form"]["games"]
    nothing = site.page("/search?q=zzzzqqq")
    assert "No rules match" in nothing.text


# ---------------------------------------------------------------------------------------------
# Card pages


def part(html: str, tag: str, element_id: str = "", **attr: str) -> Page:
    """One element of a page, found by id (or one other attribute), parsed on its own: what
    one row, ruling or list holds. For elements that do not nest in their own kind."""
    key, value = ("id", element_id) if element_id else next(iter(attr.items()))
    at = html.index(f'{key.rstrip("_").replace("_", "-")}="{value}"')
    start = html.rindex(f"<{tag}", 0, at)
    return Page(html[start : html.index(f"</{tag}>", at)])


def test_card_page_shows_the_changed_rulings_warning_and_rulings_by_timing(site: Site) -> None:
    page = site.page("/card/honest")
    assert text_of(page.one("h1")) == "Honest"
    warning = page.one("div", class_="warning")
    assert "2014" in text_of(warning) and "Rulings changed" in text_of(warning)
    # The window heading links to that moment on the TCG chart.
    window = page.one("a", href="/timing/yugioh/tcg#yugioh-tcg-during-damage-calculation")
    assert text_of(window) == "During damage calculation"
    # The worked example, its steps in order, marked Vietnamese, with its source.
    example = part(page.html, "article", "ygo-damage-step:van-de-honest.5")
    assert "Honest Vs. Honest" in example.text
    steps = example.one("ol", class_="steps")
    assert steps["attrs"]["lang"] == "vi"
    assert [e["attrs"]["class"].split()[1] for e in example.find("li", class_="step")][:4] == [
        "event-setup",
        "event-setup",
        "event-attack",
        "event-activate",
    ]
    assert "community text, not official" in example.text
    assert "2010 (TCG rulebook ver. 8.0)" in example.text
    assert "lines 93-94" in example.text and "003_eab9188e51b676e0.txt" not in example.text
    assert example.find("a", href="/rule/ygo-damage-step:van-de-honest.5")
    assert example.find("a", href="/card/d-d-warrior-lady")  # the other cards it names
    bullet = part(page.html, "article", "ygo-damage-step:van-de-honest.1")
    assert bullet.find("div", class_="rule-body", lang="vi")
    assert bullet.find("a", class_="card-ref", href="/card/injection-fairy-lily")
    aliases = page.find("span", class_="alias")
    assert {text_of(a) for a in aliases} == {"Honest", "honest", "欧尼斯特"}
    # the Chinese name marked as Chinese, for screen readers and fonts
    assert [a["attrs"].get("lang") for a in aliases if text_of(a) == "欧尼斯特"] == ["zh"]
    assert "case variant" in page.text

    data = site.json("/card/honest.json")
    assert "2014" in data["card"]["notes"]
    [group] = data["rulings_by_timing"]
    assert group["timing"] == "yugioh-tcg-during-damage-calculation"
    assert [r["id"] for r in group["rulings"]] == [
        "ygo-damage-step:van-de-honest.1",
        "ygo-damage-step:van-de-honest.5",
    ]
    assert group["rulings"][1]["cite"]["source"] == "003_eab9188e51b676e0.txt:93-94"


def test_card_data_cites_the_rule_each_fact_comes_from(site: Site) -> None:
    page = site.page("/card/breaker-the-magical-warrior")
    facts = {text_of(e["dt"]): e for e in _facts(page)}
    assert facts["ATK"]["value"] == "1600"
    assert facts["DEF"]["value"] == "1000"
    assert facts["Password"]["value"] == "71413901"
    assert page.find("a", href="/rule/ygo-gameking-2005:questions-and-answers.31")
    assert "machine translation, not official" in page.text
    assert "004_4a9a118fb2d6deb2.txt" not in page.text and "line " in page.text
    chinese = page.one("span", class_="alias", lang="zh")
    assert text_of(chinese) == "魔导战士 破坏者"
    assert "Chinese" in page.text and "Japanese" in page.text

    data = site.json("/card/breaker-the-magical-warrior.json")
    by_field = {f["field"]: f for f in data["facts"]}
    assert by_field["atk"]["value"] == "1600"
    assert by_field["atk"]["cite"]["id"] == "ygo-gameking-2005:questions-and-answers.31"
    assert by_field["atk"]["cite"]["provenance"] == "machine"


def _facts(page: Page) -> list[dict[str, Any]]:
    """The card data of a card page: label (dt) and value of each fact."""
    out = []
    dts, values = page.find("dt"), page.find("span", class_="value")
    for dt, value in zip(dts, values, strict=True):
        out.append({"dt": dt, "value": text_of(value)})
    return out


def test_card_page_lists_restriction_entries_and_escapes_names(site: Site) -> None:
    page = site.page("/card/raigeki")
    entries = page.one("ul", class_="restrictions")
    assert "DM5" in text_of(entries) and "limited" in text_of(entries)
    assert "lightning" in text_of(entries)  # as the machine translation wrote it
    assert page.find(
        "a", href="/rule/ygo-gameking-2005:the-detailed-explanation-of-the-rules-of-the.4"
    )
    quoted = site.page("/card/star-vader-omega-glendios")
    assert text_of(quoted.one("h1")) == 'Star-vader, "Omega" Glendios'


def test_card_lookup_exact_fuzzy_ambiguous_and_not_found(site: Site) -> None:
    exact = site.get("/card?q=Honest")
    assert exact.status_code == 302 and exact.headers["location"] == "/card/honest"
    fuzzy = site.get("/card?q=honset")
    assert fuzzy.headers["location"] == "/card/honest?q=honset"
    assert "Closest card to “honset”" in site.page("/card/honest?q=honset").text
    assert "Closest card" not in site.page("/card/honest?q=honest").text

    ambiguous = site.page("/card?q=dd")
    assert "could be" in ambiguous.text
    assert ambiguous.find("a", href="/card/d-d-warrior")
    assert ambiguous.find("a", href="/card/d-d-warrior-lady")

    missing = site.get("/card?q=zzzzqqq")
    assert missing.status_code == 404
    page = Page(missing.text)
    assert "No card is called “zzzzqqq”" in page.text
    assert page.find("a", href="/search?q=zzzzqqq")

    assert site.json("/card.json?q=honest")["card"]["id"] == "honest"
    assert site.json("/card.json?q=dd")["ambiguous"] is True
    as_json = site.get("/card.json?q=zzzzqqq")
    assert as_json.status_code == 404 and as_json.json()["found"] is False
    index = site.page("/card")
    assert index.find("a", href="/card/honest")
    assert index.one("form", action="/card")


def test_section_page_links_card_names_as_written(site: Site) -> None:
    page = site.page("/doc/ygo-damage-step/van-de-honest")
    example = part(page.html, "article", "van-de-honest.5")
    links = {(text_of(a), a["attrs"]["href"]) for a in example.find("a", class_="card-ref")}
    assert ("honest", "/card/honest") in links  # lower case, as the text writes it
    assert ("Honest", "/card/honest") in links
    assert ("D.D. Warrior Lady", "/card/d-d-warrior-lady") in links
    assert ("Blue-Eyes White Dragon", "/card/blue-eyes-white-dragon") in links
    assert "Cards:" in example.text  # and listed under the rule
    data = site.json("/doc/ygo-damage-step/van-de-honest.json")
    named = data["cards"]["ygo-damage-step:van-de-honest.5"]
    assert [c["id"] for c in named][:2] == ["honest", "d-d-warrior-lady"]
    # A rule naming no card links none; the CR names none at all.
    assert not site.page("/doc/fow-cr-8.01/105").find("a", class_="card-ref")


def test_rule_html_links_card_names_in_any_case_on_word_boundaries() -> None:
    html = rule_html(
        '"honest" and Honest, not Honesty; <b>Honest</b>',
        cards={"Honest": "/card/honest"},
    )
    assert html.count('class="card-ref"') == 3
    assert "Honesty" in html and "&lt;b&gt;" in html


# ---------------------------------------------------------------------------------------------
# Timing charts


def test_timing_chart_shows_each_moment_in_order_with_names_and_properties(site: Site) -> None:
    page = site.page("/timing/yugioh/tcg")
    assert text_of(page.one("h1")) == "Yu-Gi-Oh! timing · TCG"
    ids = [e["attrs"]["id"] for e in page.find("li", class_="node")]
    substeps = [i for i in ids if e_kind(page, i) == "kind-substep"]
    assert substeps == [
        "yugioh-tcg-start-of-damage-step",
        "yugioh-tcg-flip-face-up",
        "yugioh-tcg-before-damage-calculation",
        "yugioh-tcg-during-damage-calculation",
        "yugioh-tcg-after-damage-calculation",
        "yugioh-tcg-flip-effects",
        "yugioh-tcg-end-of-damage-step",
    ]
    assert [text_of(b) for b in page.find("span", class_="badge")] == list("1234567")
    during = page.one("li", id="yugioh-tcg-during-damage-calculation")
    assert "Only one Chain" in text_of(during)
    assert "No responses after the Chain" in text_of(during)
    assert "Effects that only change ATK/DEF cannot be activated" in text_of(during)
    assert "Vào lúc tính toán thiệt hại" in text_of(during)
    assert page.find("span", lang="zh")
    assert page.find("span", lang="vi")
    # Each property links to the rule that states it; each box to its rules under the chart.
    props = page.find("li", class_="prop-chains")
    assert props and all(
        a["attrs"]["href"].startswith("/rule/") for a in page.find("a", class_="cite")
    )
    assert page.find("a", href="#rules-yugioh-tcg-during-damage-calculation")
    moment = part(page.html, "section", "rules-yugioh-tcg-during-damage-calculation")
    assert moment.find("a", href="/rule/ygo-damage-step:buoc-phu-4-vao-luc-tinh-toan-thiet.2")
    assert "line " in moment.text and "003_eab9188e51b676e0.txt" not in moment.text
    assert page.find("a", href="/timing/yugioh/ocg")

    data = site.json("/timing/yugioh/tcg.json")
    [root] = data["nodes"]
    damage = next(c for c in root["children"] if c["id"] == "yugioh-tcg-damage-step")
    assert [c["label"] for c in damage["children"]] == list("1234567")
    four = damage["children"][3]
    assert {p["display"] for p in four["properties"]} >= {"Only one Chain"}


def e_kind(page: Page, node_id: str) -> str:
    """The kind class (kind-phase, kind-substep...) of a chart box."""
    classes = page.one("li", id=node_id)["attrs"]["class"].split()
    return next(c for c in classes if c.startswith("kind-"))


def test_timing_urls_for_games_rulesets_and_games_without_timing(site: Site) -> None:
    yugioh = site.page("/timing/yugioh")
    assert yugioh.find("a", href="/timing/yugioh/tcg")
    assert yugioh.find("a", href="/timing/yugioh/ocg")
    fow = site.page("/timing/fow")  # one chart for every format: the chart itself
    assert "Force of Will timing" in text_of(fow.one("h1"))
    assert fow.find("li", id="fow-declare-block-step")
    vanguard = site.page("/timing/vanguard")
    assert "No timing chart for Cardfight!! Vanguard" in vanguard.text
    assert site.json("/timing/vanguard.json")["trees"] == []
    index = site.page("/timing")
    assert index.find("a", href="/timing/fow") and index.find("a", href="/timing/yugioh/ocg")
    assert site.get("/timing/ygo/tcg").headers["location"] == "/timing/yugioh/tcg"
    assert site.get("/timing/fow/%2A").headers["location"] == "/timing/fow"
    assert site.get("/timing/ygo/tcg.json").headers["location"] == "/timing/yugioh/tcg.json"


# ---------------------------------------------------------------------------------------------
# Ask


def test_ask_page_puts_the_composed_answer_before_the_passages(site: Site) -> None:
    page = site.page("/ask?q=honest+vs+honest")
    data = site.json("/ask.json?q=honest+vs+honest")
    answer = data["answer"]
    assert data["confident"] is True and answer["type"] == "vs"
    ruling = page.one("p", class_="ruling")
    assert text_of(ruling) == answer["ruling"]
    assert page.html.index('class="ruling"') < page.html.index('id="passages-h"')
    steps = part(page.html, "ol", class_="sequence").find("li")
    assert [text_of(li) for li in steps] == answer["sequence"]
    warning = page.one("div", class_="page-notes")
    assert "2014" in text_of(warning)
    more = [
        w for w in page.find("div", class_="warning") if "page-notes" not in w["attrs"]["class"]
    ]
    assert "not an official ruling" in text_of(more[0]) and "2014" not in text_of(more[0])
    assert page.find("a", href="/timing/yugioh/tcg#yugioh-tcg-during-damage-calculation")
    assert page.find("a", href="/card/honest")
    for source in answer["sources"]:
        assert page.find("a", href=source["url"])
        place = site.get(source["url"])  # the permalink resolves to the rule's place
        assert place.status_code == 302
        anchor = place.headers["location"].split("#", 1)[1]
        assert site.page(place.headers["location"]).find("article", id=anchor)
    first_hit = page.one("li", id="hit-1")
    assert first_hit and page.find("div", class_="hit-text", lang="vi")
    assert "lines 93-94" in page.text and "003_eab9188e51b676e0.txt" not in page.text


def test_ask_page_says_plainly_when_nothing_matches_and_offers_choices(site: Site) -> None:
    page = site.page("/ask?q=qwxz+zzkv")
    assert "No confident match for “qwxz zzkv”" in text_of(page.one("p", class_="no-match"))
    assert not page.find("section", class_="answer")
    data = site.json("/ask.json?q=qwxz+zzkv")
    assert data["confident"] is False and data["answer"] is None and data["hits"] == []

    choices = site.page("/ask?q=magician+vs+honest")
    assert "“magician” could be several cards" in choices.text
    assert choices.find("a", href="/card/dark-magician")
    assert choices.find("a", href="/ask?q=Dark+Magician+vs+honest")
    form = site.page("/ask")
    assert form.one("form", action="/ask") and not form.find("p", class_="no-match")


# ---------------------------------------------------------------------------------------------
# Translations side by side


def test_compare_page_aligns_source_and_variants_row_by_row(
    site: Site, conn: sqlite3.Connection
) -> None:
    page = site.page("/compare/fow-basic")
    headers = [text_of(th) for th in page.find("th")]
    assert headers[0].startswith("English source")
    assert headers[1].startswith("vi-mt1") and headers[2].startswith("vi-mt2")
    first = part(page.html, "tbody", "objectives-of-the-game.1")
    assert first.find("a", href="/rule/fow-basic:objectives-of-the-game.1")
    assert first.find("a", href="/rule/fow-basic-vi-mt1:muc-tieu-cua-tro-choi.1")
    assert first.find("a", href="/rule/fow-basic-vi-mt2:muc-tieu-cua-tro-choi.1")
    translation = site.get("/rule/fow-basic-vi-mt2:muc-tieu-cua-tro-choi.1")
    assert translation.headers["location"].startswith("/doc/fow-basic-vi-mt2/")
    assert "Lower the opponent players life from 4000 to 0." in first.text
    assert first.find("div", class_="cell-rule", lang="vi")
    # A source rule translated by two sentences: both in its cell.
    third = part(page.html, "tbody", "objectives-of-the-game.3")
    vi_mt1 = [c for c in third.find("td") if c["attrs"].get("data-label") == "vi-mt1"]
    assert "Người chơi với hầu hết" in text_of(vi_mt1[0])
    assert "Nếu nó vẫn còn ràng buộc" in text_of(vi_mt1[0])
    # Checks highlighted on their row, with their severity and detail.
    second = part(page.html, "tbody", "objectives-of-the-game.2")
    warning = second.find("li", class_="sev-warning")
    assert warning and "Life Points rendered 2 ways" in text_of(warning[0])
    assert second.find("td", class_="sev-cell-warning")
    # The word diff of the two variants, on demand.
    diff = second.one("details", class_="variant-diff")
    assert diff and second.find("del") and second.find("ins")
    # A translation without a source gets a row with an empty source cell.
    orphans = page.find("tbody", class_="no-source")
    assert orphans

    data = site.json("/compare/fow-basic.json")
    assert len(data["rows"]) == len(compare_rows(conn, "fow-basic"))
    assert data["counts"]["without_source"] == len(orphans)
    cell = data["rows"][0]["cells"][0]["rules"][0]
    assert cell["provenance"] == "machine" and cell["source"].startswith("000_")


def test_compare_variant_filters_and_documents_without_translations(site: Site) -> None:
    only = site.page("/compare/fow-basic?variants=vi-mt2")
    assert len(only.find("th")) == 2 and "vi-mt2" in text_of(only.find("th")[1])
    one = site.get("/compare/fow-basic-vi-mt1")
    assert one.headers["location"] == "/compare/fow-basic?variants=vi-mt1"
    assert site.get("/compare/fow-basic?variants=zz").status_code == 404
    none = site.page("/compare/fow-cr-8.01")
    assert "no translation to compare" in none.text
    index = site.page("/compare")
    assert index.find("a", href="/compare/fow-basic") and index.find("a", href="/compare/vg-basic")


def test_variant_diff_page_styles_insertions_and_deletions(
    site: Site, conn: sqlite3.Connection
) -> None:
    rule = "fow-basic:objectives-of-the-game.1"
    page = site.page(f"/compare/fow-basic/diff/{rule}")
    expected = variant_diff(conn, rule)
    assert [text_of(d) for d in page.find("del")][0] == expected.segments[0][1]
    assert [text_of(i) for i in page.find("ins")][0] == expected.segments[1][1]
    assert page.find("a", href=f"/rule/{rule}")
    swapped = site.json(f"/compare/fow-basic/diff/{rule}.json?left=vi-mt2&right=vi-mt1")
    assert swapped["left"]["variant"] == "vi-mt2"
    assert swapped["segments"][0]["op"] == "delete"


# ---------------------------------------------------------------------------------------------
# Versions


def test_diff_page_counts_match_kb_diff_and_changes_link_both_versions(
    site: Site, built_db: Path
) -> None:
    cli_json = CliRunner().invoke(
        cli, ["diff", "fow-cr-7.0", "fow-cr-8.01", "--db", str(built_db), "--json"]
    )
    counts = json.loads(cli_json.output)["summary"]["counts"]
    whole = site.page("/diff/fow-cr-7.0/fow-cr-8.01")
    shown = {e["attrs"]["data-kind"]: int(text_of(e)) for e in whole.find("span", class_="n")}
    assert shown == counts
    # Too many changes for one page: the chapters, each with its count, and no change yet.
    assert not whole.find("li", class_="change-row")
    chapters = part(whole.html, "nav", aria_label="Changes by chapter")
    listed = {text_of(a): a["attrs"]["href"] for a in chapters.find("a")}
    assert listed["100 Overview"] == "/diff/fow-cr-7.0/fow-cr-8.01?chapter=100"
    total = sum(int(text_of(c).strip("· ")) for c in chapters.find("span", class_="count"))
    assert total == sum(n for k, n in counts.items() if k != "unchanged")
    page = site.page("/diff/fow-cr-7.0/fow-cr-8.01?chapter=300")  # one chapter: its changes
    moved = part(page.html, "li", _first_change(page, "kind-moved"))
    old, new = [a["attrs"]["href"] for a in moved.find("a", class_="num-link")]
    assert old.startswith("/rule/fow-cr-7.0:") and new.startswith("/rule/fow-cr-8.01:")
    assert old.split(":")[1] != new.split(":")[1]  # renumbered
    page = site.page("/diff/fow-cr-7.0/fow-cr-8.01?chapter=100")
    reworded = part(page.html, "li", _first_change(page, "kind-reworded"))
    assert text_of(reworded.find("del")[0]) == "Points:"  # 105.4: "Life Points:" -> "Life:"
    assert "official rules text" in reworded.text and "line " in reworded.text
    assert not page.find("li", class_="kind-unchanged")  # as kb diff: unchanged only on demand

    only_moved = site.page("/diff/fow-cr-7.0/fow-cr-8.01?kind=moved")
    assert len(only_moved.find("li", class_="change-row")) == counts["moved"]
    data = site.json("/diff/fow-cr-7.0/fow-cr-8.01.json?kind=added&kind=removed")
    assert len(data["changes"]) == counts["added"] + counts["removed"]
    assert site.get("/diff/7.0/8.01").headers["location"] == "/diff/fow-cr-7.0/fow-cr-8.01"
    assert site.page("/diff").find("a", href="/diff/fow-cr-7.0/fow-cr-8.01")


def _first_change(page: Page, kind: str) -> str:
    return page.find("li", class_=kind)[0]["attrs"]["id"]


def test_history_page_follows_a_renumbered_rule(site: Site) -> None:
    page = site.page("/history/314.1")
    assert "names 2 different rules" in page.text
    assert page.find("a", href="/rule/fow-cr-7.0:314.1")
    assert page.find("a", href="/rule/fow-cr-8.01:316.1")
    assert "moved" in page.text and "This version has no such rule." in page.text
    reworded = site.page("/history/fow-cr-8.01:105.4")
    assert text_of(reworded.find("del")[0]) == "Points:"
    assert site.get("/history?q=314.1").headers["location"] == "/history/314.1"
    data = site.json("/history/314.1.json")
    assert len(data["histories"]) == 2
    section = site.page("/doc/fow-cr-8.01/105")
    assert section.find("a", href="/history/fow-cr-8.01:105.3a")


# ---------------------------------------------------------------------------------------------
# Navigation


def test_new_pages_are_in_the_navigation_and_on_the_home_page(site: Site) -> None:
    home = site.page("/")
    nav = part(home.html, "nav", aria_label="Site").links()
    assert nav["Ask"] == "/ask" and nav["Cards"] == "/card" and nav["Timing"] == "/timing"
    assert nav["Translations"] == "/compare" and nav["Versions"] == "/diff"
    assert home.find("a", href="/timing/yugioh/tcg") and home.find("a", href="/timing/fow")
    assert home.one("form", action="/card") and home.one("form", action="/ask")
    assert home.find("a", href="/compare/fow-basic")
    assert home.find("a", href="/diff/fow-cr-7.0/fow-cr-8.01")
    data = site.json("/.json")
    assert [t["url"] for g in data["games"] for t in g["timing"]] == [
        "/timing/fow",
        "/timing/yugioh/tcg",
        "/timing/yugioh/ocg",
    ]


def test_user_text_and_payloads_stay_text_on_the_new_pages(site: Site, xss_site: Site) -> None:
    for path, payload in (
        (f"/ask?q={quote(SCRIPT)}", SCRIPT),
        (f"/card?q={quote(SCRIPT)}", SCRIPT),
        (f"/history/{quote(IMG)}", IMG),
        (f"/compare/fow-basic?variants={quote(IMG)}", IMG),
    ):
        response = site.get(path)
        if response.status_code == 302:  # Datasette: percent escapes in a path -> tildes
            response = site.get(response.headers["location"])
        page = Page(response.text)
        assert not inline_scripts(page) and not page.find("img"), path
        assert payload in page.text, path
    hits = xss_site.page("/ask?q=script+tag+must+stay+text")
    assert SCRIPT in hits.text and not inline_scripts(hits)


# ---------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    "path",
    [
        "/g/nope",
        "/doc/nope",
        "/doc/fow-cr-8.01/nope",
        "/rule/nope:1",
        "/rule/999.9z",
        "/card/nope",
        "/timing/nope",
        "/timing/yugioh/nope",
        "/compare/nope",
        "/compare/fow-basic/diff/fow-basic:nope",
        "/diff/fow-cr-7.0/nope",
        "/history/nope",
    ],
)
def test_unknown_things_answer_404_in_html_and_json(site: Site, path: str) -> None:
    response = site.get(path)
    assert response.status_code == 404
    page = Page(response.text)
    assert text_of(page.one("h1")) == "Not found"
    assert page.find("a", href="/search")
    as_json = site.get(path + ".json")
    assert as_json.status_code == 404
    assert as_json.json()["ok"] is False


# ---------------------------------------------------------------------------------------------
# Datasette's own pages, canned queries, settings


def test_datasette_pages_and_json_api_stay_available(site: Site) -> None:
    assert "rules" in site.page("/kb").text
    table = site.page("/kb/rules?_facet=game")
    assert "fow-cr-8.01:105.3a" in table.html or "fow-basic" in table.html
    row = site.page(f"/kb/rules/{tilde_encode('fow-cr-8.01:105.3a')}")
    assert "The controller of a card is the owner of it." in row.text
    rows = site.json("/kb/rules.json?_shape=array&document=fow-cr-8.01&number=105.3a")
    assert [r["id"] for r in rows] == ["fow-cr-8.01:105.3a"]
    searched = site.json("/kb/rules.json?_search=honest&_shape=array")
    assert searched
    sql = site.json("/kb.json?sql=select+count(*)+as+n+from+rules&_shape=array")
    assert sql[0]["n"] > 1000
    # Datasette's footer leads back to the rules site.
    assert table.find("a", href="/")


def test_canned_queries_are_the_queries_package(site: Site, conn: sqlite3.Connection) -> None:
    for name in queries.published():
        query = queries.load(name)
        page = site.page(f"/kb/{name}")
        assert query.title in page.text
    internal = [n for n in queries.names() if n not in queries.published()]
    assert internal and site.get(f"/kb/{internal[0]}").status_code == 404
    params = "q=battle+step&mode=&game=fow&lang=&limit=5"
    canned = site.json(f"/kb/search.json?{params}&_shape=array")
    cli = run(conn, "search", q="battle step", mode="", game="fow", lang="", limit=5)
    assert [r["id"] for r in canned] == [r["id"] for r in cli]
    assert site.json("/kb/rule.json?id=fow-cr-8.01:105.3a&_shape=array")[0]["number"] == "105.3a"


def test_database_is_read_only_and_settings_apply(site: Site) -> None:
    [db] = site.json("/-/databases.json")
    assert db["name"] == "kb" and db["is_mutable"] is False
    write = site.get("/kb.json?sql=delete+from+rules")
    assert write.status_code == 400
    settings = site.json("/-/settings.json")
    assert settings["sql_time_limit_ms"] == 1000
    assert settings["max_returned_rows"] == 1000
    assert settings["allow_download"] is False
    assert site.get("/kb.db").status_code in (403, 404)


def test_page_queries_obey_the_sql_time_limit(built_db: Path) -> None:
    ds = make_datasette(built_db, sql_time_limit_ms=20)
    endless = "with recursive n(i) as (select 1 union all select i + 1 from n) select max(i) from n"

    async def slow_page() -> Any:
        await ds.invoke_startup()
        return await query(ds, lambda kb: kb.conn.execute(endless).fetchall())

    with pytest.raises(DatasetteError) as error:
        asyncio.run(slow_page())
    assert error.value.status == 504  # it ran and used its budget: not to be retried


def test_static_stylesheet_is_served(site: Site) -> None:
    page = site.page("/")
    href = page.one("link", rel="stylesheet")["attrs"]["href"]
    css = site.get(href)
    assert css.status_code == 200 and "max-width" in css.text


# ---------------------------------------------------------------------------------------------
# Untrusted text


def test_markup_in_rule_text_is_shown_as_text(xss_site: Site) -> None:
    page = xss_site.page("/doc/xss-cr/101")
    assert SCRIPT in page.text
    assert IMG in page.text
    assert "[click](javascript:window.__xss=1)" in page.text
    assert not inline_scripts(page)
    assert not page.find("img")
    assert not [a for a in page.find("a") if "javascript" in a["attrs"].get("href", "").lower()]
    assert not [e for e in page.elements if any(k.startswith("on") for k in e["attrs"])]
    # A cited rule number still links, and 999.9 (no such rule) does not.
    assert page.find("a", href="/doc/xss-cr/101#101.1", class_="rule-ref")
    assert "999.9" in page.text and not page.find("a", href="/doc/xss-cr/101#999.9")
    # Markup in headings and document titles is text too.
    assert "Payloads <i>in a heading</i>" in xss_site.page("/doc/xss-cr").text
    assert not xss_site.page("/doc/xss-cr").find("i")
    game = xss_site.page("/g/xss")
    assert "Payload rules <b>not bold</b>" in game.text and not game.find("b")
    hits = xss_site.page("/search?q=script+tag&all=1")
    assert SCRIPT in hits.text and not inline_scripts(hits)
    # JSON keeps the text as it is.
    data = xss_site.json("/doc/xss-cr/101.json")
    assert any(SCRIPT in r["text"] for r in data["rules"])


def test_rule_html_escapes_and_links_only_known_things() -> None:
    html = rule_html(
        'See 105.3a and "Honest", not 2005.11.01, 8.0 or 999.9. <b>x</b> *em*',
        numbers={"105.3a": "/doc/d/105#105.3a"},
        cards={"Honest": "/card/honest"},
    )
    assert '<a href="/doc/d/105#105.3a" class="rule-ref">105.3a</a>' in html
    assert '<a href="/card/honest" class="card-ref">Honest</a>' in html
    assert "2005.11.01" in html and "999.9" in html and html.count("<a ") == 2
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<em>em</em>" in html
    assert "<img" not in rule_html("![x](http://example.com/x.png)")
    assert "<a" not in rule_html("[x](javascript:alert(1)) <http://example.com>")
    # A URL with quotes is escaped in the attribute.
    assert 'href="/x?a=&quot;' in rule_html("101.1", numbers={"101.1": '/x?a="'})


def test_page_functions_return_plain_data_without_html(kb: KnowledgeBase) -> None:
    """kb.pages is a library: plain dicts, JSON-serializable, no markup added."""
    for data in (
        rule_pages.home(kb),
        rule_pages.game(kb, "yugioh"),
        rule_pages.document(kb, "ygo-damage-step"),
        rule_pages.section(kb, "fow-cr-8.01", "105"),
        rule_pages.rule(kb, "fow-cr-8.01:105.3a"),
        rule_pages.search(kb, "damage step"),
        card_pages.card(kb, "honest"),
        card_pages.card_search(kb, "dd"),
        timing_pages.timing(kb, "yugioh", "tcg"),
        timing_pages.timing_index(kb),
        ask_pages.ask(kb, "honest vs honest"),
        compare_pages.compare(kb, "fow-basic"),
        compare_pages.variant_diff(kb, "fow-basic", "fow-basic:objectives-of-the-game.1"),
        history_pages.diff(kb, "fow-cr-7.0", "fow-cr-8.01"),
        history_pages.history(kb, "314.1"),
    ):
        text = json.dumps(data, ensure_ascii=False)
        assert "<p>" not in text and "<a " not in text
    assert rule_pages.game(kb, "nope") is None
    assert rule_pages.section(kb, "fow-cr-8.01", "nope") is None
    assert rule_pages.rule(kb, "nope:1") is None
    assert card_pages.card(kb, "nope") is None
    assert timing_pages.timing(kb, "vanguard", "*") is None
    assert compare_pages.compare(kb, "nope") is None
    assert history_pages.history(kb, "nope") is None


# ---------------------------------------------------------------------------------------------
# kb serve


def test_kb_serve_get_prints_one_page(built_db: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", str(built_db), "--get", "/g/fow.json"])
    assert result.exit_code == 0, result.output
    assert '"name": "Force of Will"' in result.output
    missing = CliRunner().invoke(cli, ["serve", "--db", "/nonexistent/kb.sqlite", "--get", "/"])
    assert missing.exit_code == 1
    assert "no knowledge base here" in missing.output
    assert len(missing.output.strip().splitlines()) == 1


def test_serve_site_reports_a_taken_port_and_a_failing_page(
    built_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        with pytest.raises(ServeError, match="in use"):
            serve_site(built_db, host="127.0.0.1", port=port)
    with pytest.raises(ServeError, match="HTTP 404"):
        serve_site(built_db, get_path="/g/nope")
    with pytest.raises(ServeError, match="HTTP 302 -> /doc/fow-cr-8.01/105#105.3a"):
        serve_site(built_db, get_path="/rule/fow-cr-8.01:105.3a")
    capsys.readouterr()


@pytest.mark.parametrize("page", ["/search", "/ask"])
def test_an_unknown_game_is_a_400_that_names_it_and_an_alias_is_a_game(
    site: Site, page: str
) -> None:
    """The pages read ``game`` as the CLI does: an alias ("ygo") is its game, a game no
    document has is a 400 saying so (not a 500 rewritten to a generic 400, logged as a bug)."""
    bad = site.get(f"{page}.json?q=damage+step&game=bogus")
    assert bad.status_code == 400
    error = bad.json()["error"]
    assert error.startswith("unknown game 'bogus' (the knowledge base holds: ") and "fow" in error
    alias = site.json(f"{page}.json?q=damage+step&game=ygo")
    rows = alias.get("hits") or alias.get("results") or []
    assert rows and all(r["game"] == "yugioh" for r in rows)
