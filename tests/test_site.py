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

import httpx
import pytest
from click.testing import CliRunner
from datasette.utils import tilde_encode
from datasette.views.base import DatasetteError

import queries
from kb import pages
from kb.build import build
from kb.cli import cli
from kb.db import run
from kb.serve import ServeError, make_datasette, serve_site
from kb.web_render import rule_html
from kb.web_views import query

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
    form = page.one("form", role="search")
    assert form["attrs"]["action"] == "/search"
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
    assert {g["id"] for g in data["games"]} == {"fow", "vanguard", "yugioh"}
    assert {lang["lang"] for lang in data["languages"]} == {"en", "vi"}
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
    assert "fow-cr-8.01.txt" in page.text

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
    assert "fow-cr-8.01.txt:26" in text_of(rule)
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
    page = site.page("/rule/105.3a")
    assert text_of(page.one("h1")) == "Rule 105.3a"
    assert page.find("a", href="/doc/fow-cr-7.0/105#105.3a")
    assert page.find("a", href="/doc/fow-cr-8.01/105#105.3a")
    data = site.json("/rule/105.3a.json")
    assert [c["document"] for c in data["choices"]] == ["fow-cr-7.0", "fow-cr-8.01"]


# ---------------------------------------------------------------------------------------------
# Search


def test_search_finds_rules_in_any_language_and_links_to_them(site: Site) -> None:
    page = site.page("/search?q=buoc+thiet+hai")
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
    # The same ranking as the CLI's `kb search`.
    assert site.json("/search.json?q=honest&limit=5")["hits"][0]["id"]


def test_search_filters_and_odd_input(site: Site) -> None:
    data = site.json("/search.json?q=battle&game=fow&lang=vi")
    assert data["hits"]
    assert {h["lang"] for h in data["hits"]} == {"vi"}
    assert {h["game"] for h in data["hits"]} == {"fow"}
    page = site.page("/search?q=battle&game=fow&lang=vi")
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
# Errors and placeholders


@pytest.mark.parametrize(
    "path",
    ["/g/nope", "/doc/nope", "/doc/fow-cr-8.01/nope", "/rule/nope:1", "/rule/999.9z"],
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


@pytest.mark.parametrize(
    "path",
    ["/card/honest", "/timing/fow/cr", "/ask?q=honest", "/compare/fow-cr-8.01", "/diff/a/b"],
)
def test_pages_still_to_build_answer_404(site: Site, path: str) -> None:
    response = site.get(path)
    assert response.status_code == 404
    assert "not built yet" in response.text
    base, _, query = path.partition("?")
    assert site.get(base + ".json" + ("?" + query if query else "")).status_code == 404


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
    for name in queries.names():
        query = queries.load(name)
        page = site.page(f"/kb/{name}")
        assert query.title in page.text
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
        return await query(ds, lambda conn: conn.execute(endless).fetchall())

    with pytest.raises(DatasetteError) as error:
        asyncio.run(slow_page())
    assert error.value.status == 503


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
    assert not page.find("script")
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
    hits = xss_site.page("/search?q=script+tag")
    assert SCRIPT in hits.text and not hits.find("script")
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


def test_page_functions_return_plain_data_without_html(conn: sqlite3.Connection) -> None:
    """kb.pages is a library: plain dicts, JSON-serializable, no markup added."""
    for data in (
        pages.home(conn),
        pages.game(conn, "yugioh"),
        pages.document(conn, "ygo-damage-step"),
        pages.section(conn, "fow-cr-8.01", "105"),
        pages.rule(conn, "fow-cr-8.01:105.3a"),
        pages.search(conn, "damage step"),
    ):
        text = json.dumps(data, ensure_ascii=False)
        assert "<p>" not in text and "<a " not in text
    assert pages.game(conn, "nope") is None
    assert pages.section(conn, "fow-cr-8.01", "nope") is None
    assert pages.rule(conn, "nope:1") is None


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
