"""``KnowledgeBase``: the one object the command line, the website and the benches start from.

Opened from a path (read-only: nothing a reader does can change the file) or laid over a
connection someone else owns (Datasette's). Each method calls one library function of
``kb/lookups``, ``kb/search`` or ``kb/ask`` and returns the typed rows of ``kb.types``, which
are what ``--json`` and the site's JSON pages print.

Only the standard library and ``kb.store.db`` are imported here: ``kb ask`` starts from this
object, and the modules behind each method are imported when it is first called.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, cast

from .store import db

if TYPE_CHECKING:
    from .lookups.variantdiff import VariantDiff
    from .types import (
        AskResult,
        BuildSummary,
        CardLookup,
        CardView,
        CompareRow,
        HistoryEntry,
        InfractionRow,
        InfractionView,
        PenaltyLookup,
        RuleView,
        SearchHit,
        Stats,
        Term,
        TimingNode,
        VersionDiff,
    )

KbError = db.KbError


class KnowledgeBase:
    """A built knowledge base (one SQLite file), read-only.

    >>> with KnowledgeBase.open("kb.sqlite") as kb:
    ...     kb.ask("honest vs honest")["answer"]["verdict"]
    """

    def __init__(self, conn: sqlite3.Connection, *, owned: bool = True) -> None:
        self.conn = conn
        self._owned = owned

    @classmethod
    def open(cls, path: Path | str | None = None) -> KnowledgeBase:
        """The knowledge base at ``path`` (default ``$KB_DB`` or ``./kb.sqlite``), read-only;
        KbError when there is none there."""
        return cls(db.connect(Path(path) if path is not None else db.default_db_path()))

    @classmethod
    def over(cls, conn: sqlite3.Connection) -> KnowledgeBase:
        """A knowledge base on a connection the caller owns and closes (the website's)."""
        return cls(conn, owned=False)

    @staticmethod
    def build(
        corpus: Path | str | None = None,
        path: Path | str | None = None,
        progress: Callable[[str], None] | None = None,
        *,
        strict: bool = False,
        embedder: str | None = None,
    ) -> BuildSummary:
        """Build ``path`` from a corpus folder (default: the bundled corpus); the previous file
        is replaced only when the build succeeds. ``embedder`` names the passage embeddings'
        backend (kb.embed; "none" for a lean build). Raises KbError or ingest's IngestError."""
        from .store.build import build
        from .store.paths import bundled_corpus

        return build(
            Path(corpus) if corpus is not None else bundled_corpus(),
            Path(path) if path is not None else db.default_db_path(),
            progress,
            strict=strict,
            embedder=embedder,
        )

    def close(self) -> None:
        if self._owned:
            self.conn.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # Named queries of queries/ (the one row helper, kb.store.db).
    def rows(self, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return db.run(self.conn, query, **params)

    def row(self, query: str, /, **params: Any) -> dict[str, Any] | None:
        return db.first(self.conn, query, **params)

    def values(self, query: str, /, **params: Any) -> list[Any]:
        return db.column(self.conn, query, **params)

    # Arguments as a person types them.
    def game_id(self, name: str) -> str:
        """A game's id from its id, name or alias ("ygo"); KbError when none matches."""
        from .lookups.timing import game_id

        return game_id(self.conn, name)

    def check_language(self, lang: str) -> str:
        """``lang`` when it is a known language ("" is any); KbError listing them otherwise."""
        from .lookups.rules import check_language

        return check_language(self.conn, lang)

    # The judge's engine and search.
    def ask(self, question: str, *, game: str = "", lang: str = "", limit: int = 5) -> AskResult:
        """A judge's question: the composed answer (or why there is none) and cited passages,
        with whether the corpus covers what it is about (``coverage``, kb.lookups.coverage).
        ``game`` is an id or an alias; the question is capped by kb/data/limits.toml."""
        from .ask import ask_named_game
        from .lookups.coverage import annotate

        result = ask_named_game(self.conn, question, game=game, lang=lang, limit=limit)
        return cast("AskResult", annotate(self.conn, dict(result)))

    def search(
        self,
        text: str,
        *,
        game: str = "",
        lang: str = "",
        limit: int = 10,
        versions: str = "current",
        expand: bool = True,
    ) -> list[SearchHit]:
        """Rules matching ``text``, best first, in any language (kb.search.search)."""
        from .search import search

        game = self.game_id(game) if game else ""
        hits = search(
            self.conn, text, game=game, lang=lang, limit=limit, versions=versions, expand=expand
        )
        return cast("list[SearchHit]", hits)

    # Lookups.
    def rule(self, ref: str) -> list[RuleView]:
        """A rule by id, or every document's rule with that number; KbError if none."""
        from .lookups.rules import show

        return show(self.conn, ref)

    def card(self, name: str, *, game: str = "") -> CardLookup:
        """The card a typed name means (exact beats fuzzy; close candidates are ambiguous)."""
        from .lookups.cards import card_view, find_card

        match = find_card(self.conn, name, game=game)
        return {
            "query": name,
            "exact": match.exact,
            "score": match.score,
            "card": card_view(self.conn, match.card["id"]) if match.card else None,
            "candidates": match.candidates,
        }

    def card_view(self, card_id: str) -> CardView | None:
        from .lookups.cards import card_view

        return card_view(self.conn, card_id)

    def timing(self, game: str, ruleset: str = "") -> list[TimingNode]:
        """The phases, steps and sub-steps of a game (one ruleset, or all), nested."""
        from .lookups.timing import timing_tree

        return timing_tree(self.conn, game, ruleset)

    def history(self, rule: str, game: str = "") -> list[list[HistoryEntry]]:
        """What each version of a rulebook says about a rule, following renumbering."""
        from .lookups.history import rule_history

        return rule_history(self.conn, rule, game)

    def diff(self, old: str, new: str, kinds: Sequence[str] = ()) -> VersionDiff:
        """How the rules changed between two versions (every kind but unchanged by default)."""
        from .lookups import history

        old_id, new_id = (
            history.find_document(self.conn, old),
            history.find_document(self.conn, new),
        )
        wanted = tuple(kinds) or tuple(k for k in history.KINDS if k != "unchanged")
        return {
            "old": old_id,
            "new": new_id,
            "summary": history.summary(self.conn, old_id, new_id),
            "changes": history.changes(self.conn, old_id, new_id, wanted),
        }

    def compare(self, document: str, variants: Sequence[str] = ()) -> list[CompareRow]:
        """A document next to its translations, rule by rule, with the translation checks."""
        from .lookups.compare import compare

        return compare(self.conn, document, list(variants))

    def variant_diff(
        self, rule_id: str, left: str | None = None, right: str | None = None
    ) -> VariantDiff:
        """The word diff of two translations of one source rule."""
        from .lookups.variantdiff import variant_diff

        return variant_diff(self.conn, rule_id, left, right)

    def terms(self, term: str = "", game: str = "") -> list[Term]:
        """The glossary (or one term, by id, English name or any rendering, typos forgiven), of
        one game (id or alias) or all."""
        from .lookups.terms import terms

        return terms(self.conn, term, game)

    def penalty(self, query: str, *, game: str = "", lang: str = "") -> PenaltyLookup:
        """The infraction of penalty guidelines ``query`` names (its name in any language,
        misspelt or not, its number or id), in ``lang`` when given."""
        from .lookups.penalties import find_penalty
        from .lookups.rules import check_text

        return find_penalty(
            self.conn,
            check_text(query, "QUERY"),
            game=self.game_id(game) if game else "",
            lang=self.check_language(lang),
        )

    def infractions(self, *, game: str = "", lang: str = "") -> list[InfractionRow]:
        """Every infraction of penalty guidelines (of a game, in a language)."""
        from .lookups.penalties import infractions

        return infractions(self.conn, game=game, lang=lang)

    def infraction(self, rule_id: str) -> InfractionView | None:
        """One infraction, by the id of the rule that states it."""
        from .lookups.penalties import infraction_view

        return infraction_view(self.conn, rule_id)

    def stats(self) -> Stats:
        """Documents, rules per game and language, and table counts."""
        from .lookups.rules import stats

        return stats(self.conn)

    # Exports for translators' CAT tools.
    def language_pairs(self) -> list[tuple[str, str]]:
        from .lookups.export import language_pairs

        return language_pairs(self.conn)

    def export_tmx(self, source: str, target: str, path: Path | str | None = None) -> bytes:
        from .lookups.export import export_tmx

        return export_tmx(self.conn, source, target, path)

    def export_tbx(self, path: Path | str | None = None) -> bytes:
        from .lookups.export import export_tbx

        return export_tbx(self.conn, path)

    def export_checks(self, path: Path | str | None = None) -> bytes:
        from .lookups.export import export_checks_csv

        return export_checks_csv(self.conn, path)
