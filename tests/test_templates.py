"""Datasette's own pages carry the site's changes without copies of its templates."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kb.web.serve import make_datasette
from kb.web.templates import TemplatePatchError, apply, load_patches

REPO = Path(__file__).resolve().parents[1]


def test_no_template_of_datasette_is_copied_into_the_site() -> None:
    import datasette

    theirs = {p.name for p in (Path(datasette.__file__).parent / "templates").glob("*.html")}
    ours = {p.name for p in (REPO / "kb" / "web" / "templates").glob("*.html")}
    # error.html and _footer.html are the site's own (the footer includes Datasette's).
    assert ours & theirs <= {"error.html", "_footer.html"}


def test_datasette_pages_are_served_patched(built_db: Path) -> None:
    ds = make_datasette(built_db)

    async def get(path: str) -> str:
        await ds.invoke_startup()
        response = await ds.client.get(path)
        assert response.status_code == 200, path
        return response.text

    table = asyncio.run(get("/kb/rules"))
    assert 'aria-label="Filter column"' in table and 'aria-label="Sort by"' in table
    assert '<html lang="en">' in table and 'id="kb-content"' in table
    assert "Skip to content" in table
    query = asyncio.run(get("/kb?sql=select+1"))
    assert '<label for="sql-editor"' in query and 'aria-label="Results"' in query


def test_datasette_pages_have_no_inline_script(built_db: Path) -> None:
    """The site's CSP allows scripts from files only: Datasette's inline ones (closing menus,
    the SQL editor, the facet setting) are template comments, kb/web/static/datasette.js
    does their work, and every page loads it."""
    import re

    ds = make_datasette(built_db)

    async def get(path: str) -> str:
        await ds.invoke_startup()
        response = await ds.client.get(path)
        assert response.status_code == 200, path
        return response.text

    for path in ("/kb", "/kb/rules", "/kb/rules?_facet=game", "/kb?sql=select+1", "/-/versions"):
        html = asyncio.run(get(path))
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert scripts and all("src=" in s for s in scripts), (path, scripts)
        assert "/-/kb-static/datasette.js?v=" in html, path
    table = asyncio.run(get("/kb/rules"))
    assert '<meta name="datasette-allow-facet" content="true">' in table


def test_a_patch_that_does_not_fit_stops_the_site_naming_the_template() -> None:
    patches = load_patches()
    base = patches["base.html"]
    with pytest.raises(TemplatePatchError, match="base.html"):
        apply("base.html", "<html><body>no such markup</body></html>", base)
