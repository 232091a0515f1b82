"""The markup readers on small sources: structure kept, markup gone, links kept as data."""

from __future__ import annotations

from ingest.markup.html import parse as parse_html
from ingest.markup.markdown import parse as parse_markdown
from ingest.markup.rst import parse as parse_rst


def shape(parsed) -> list[tuple[str, int, str, str]]:  # noqa: ANN001 - Parsed
    return [(ln.mark.kind, ln.mark.level, ln.mark.label, ln.text) for ln in parsed.lines]


def test_markdown_title_lists_links_and_comments() -> None:
    parsed = parse_markdown(
        "<!-- draft -->\n# Rules\n\n## Play\n\n1. Draw **one** card.\n   - see [Timing](#timing)\n"
        "2. Play `Kindle 2`.\n\n> **Example:** Aya draws.\n\n## Timing\n\nText.\n"
    )
    assert parsed.title == "Rules"
    assert shape(parsed) == [
        ("heading", 1, "", "Play"),
        ("item", 1, "1", "Draw one card."),
        ("bullet", 2, "", "see Timing"),
        ("item", 1, "2", "Play Kindle 2."),
        ("quote", 0, "", "Example: Aya draws."),
        ("heading", 1, "", "Timing"),
        ("paragraph", 0, "", "Text."),
    ]
    assert parsed.lines[2].mark.links == (("Timing", "#timing"),)
    assert parsed.lines[5].mark.anchor == "timing"


def test_rst_substitutions_roles_and_directives() -> None:
    parsed = parse_rst(
        ".. |LP| replace:: 生命值\n\n.. _setup:\n\n准备\n====\n\n#. 初始 |LP| 为 20。\n"
        "#. 见 :ref:`setup`\\ 。\n\n.. note::\n\n   注意。\n\n.. contents::\n\n"
        "其他\n====\n\n术语\n   定义，见 :ref:`说明 <setup>`。\n"
    )
    assert shape(parsed) == [
        ("heading", 1, "", "准备"),
        ("item", 1, "1", "初始 生命值 为 20。"),
        ("item", 1, "2", "见 准备。"),  # :ref: reads as the section's title, as Sphinx does
        ("note", 0, "", "注意。"),
        ("heading", 1, "", "其他"),
        ("term", 0, "术语", "定义，见 说明。"),
    ]
    assert parsed.lines[2].mark.links == (("准备", "setup"),)
    assert "setup" in parsed.lines[0].mark.anchor.split()


def test_html_drops_scripts_styles_comments_and_keeps_entities() -> None:
    parsed = parse_html(
        "<html><head><style>p{x:SECRET}</style></head><body><!-- c --><h1>T &amp; U</h1>"
        "<h2 id='a'>A</h2><p>18&nbsp;Harvest &mdash; <a href='#a'>see A</a></p>"
        "<ol start='3'><li>x<ul><li>y</li></ul></li></ol><dl><dt>Term</dt><dd>Def.</dd></dl>"
        "<table><tr><th>H</th></tr><tr><td>v</td></tr></table><script>SECRET()</script>"
        "<p>broken <b>bold<ul><li>one<li>two</ul></body></html>"
    )
    assert parsed.title == "T & U"
    assert shape(parsed) == [
        ("heading", 1, "", "A"),
        ("paragraph", 0, "", "18 Harvest — see A"),
        ("item", 1, "3", "x"),
        ("bullet", 2, "", "y"),
        ("term", 0, "Term", "Def."),
        ("row", 0, "", "H: v"),
        ("paragraph", 0, "", "broken bold one two"),
    ]
    assert parsed.lines[1].mark.links == (("see A", "#a"),)
    assert not any("SECRET" in ln.text for ln in parsed.lines)
