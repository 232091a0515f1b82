"""Processed documents kept in a temporary file, a few in memory at a time.

The stages after the per-document ones read every document several times (alignment, version
diffs, glossaries, knowledge, the writer): held in memory, the processed documents of a large
corpus took gigabytes. ``Documents`` pickles each one as it is processed and loads it again
when a stage reads it; ``heads`` (each document without its sections, rules, references,
repairs and duplicates) answer the stages that only ask what a document is, and ``rules``
finds a rule by its id (``<document id>:<local id>``) by loading its document.

Stages accept any sequence of documents; ``view`` gives them the same three ways in to a
plain list (the tests' small corpora). ``Stored`` keeps any other corpus-sized list the same
way (the alignment's links, and the lists that wait for the writer: translation checks,
infractions, restriction lists), a chunk of items at a time.
"""

from __future__ import annotations

import pickle
import tempfile
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TypeVar, overload

from .records import DocumentResult, Rule

T = TypeVar("T")

CACHE_BYTES = 4_000_000
"""Documents kept loaded, by the size of their pickles (a document loaded takes about three
times its pickle): the most recently read, so that a source and its translations, or a rule
lookup going back and forth between them, load each once. Stages after processing never
change a document, so a document loaded again is the same."""

LARGE_CHUNK = 128
"""Items per chunk of a stored list of large records (an infraction, an official-terms
reading: each holds a whole rule's text)."""


def head(result: DocumentResult) -> DocumentResult:
    """What a document is, without what it holds."""
    return DocumentResult(doc=result.doc, languages=result.languages, numbering=result.numbering)


class Documents(Sequence[DocumentResult]):
    """An append-only sequence of processed documents, stored pickled in an unnamed temporary
    file (removed by the system when the build ends, however it ends)."""

    def __init__(self) -> None:
        # Held for the build's life: closed by close(), or by the system when the build ends.
        self._file = tempfile.TemporaryFile(prefix="kb-build-documents-")  # noqa: SIM115
        self._spans: list[tuple[int, int]] = []
        self._position: dict[str, int] = {}
        self._loaded: OrderedDict[int, DocumentResult] = OrderedDict()
        self._loaded_bytes = 0
        self._rule_index: dict[int, dict[str, Rule]] = {}  # of loaded documents
        self.heads: list[DocumentResult] = []
        self.rules = Rules(self)

    def append(self, result: DocumentResult) -> None:
        data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        at = self._file.seek(0, 2)
        self._file.write(data)
        self._position[result.doc.doc_id] = len(self._spans)
        self._spans.append((at, len(data)))
        self.heads.append(head(result))

    def __len__(self) -> int:
        return len(self._spans)

    @overload
    def __getitem__(self, index: int) -> DocumentResult: ...
    @overload
    def __getitem__(self, index: slice) -> list[DocumentResult]: ...
    def __getitem__(self, index: int | slice) -> DocumentResult | list[DocumentResult]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        index = range(len(self))[index]  # negative indices, and IndexError past the end
        if index in self._loaded:
            self._loaded.move_to_end(index)
            return self._loaded[index]
        at, size = self._spans[index]
        self._file.seek(at)
        result: DocumentResult = pickle.loads(self._file.read(size))
        self._loaded[index] = result
        self._loaded_bytes += size
        while self._loaded_bytes > CACHE_BYTES and len(self._loaded) > 1:
            dropped, _ = self._loaded.popitem(last=False)
            self._loaded_bytes -= self._spans[dropped][1]
            self._rule_index.pop(dropped, None)
        return result

    def rule(self, rule_id: str) -> Rule:
        """The rule ``rule_id`` (KeyError if no document of the corpus has it)."""
        index = self._position.get(rule_id.partition(":")[0])
        if index is None:
            raise KeyError(rule_id)
        document = self[index]
        if index not in self._rule_index:
            self._rule_index[index] = {r.id: r for r in document.rules}
        return self._rule_index[index][rule_id]

    def __iter__(self) -> Iterator[DocumentResult]:
        for i in range(len(self)):
            yield self[i]

    def by_id(self, doc_id: str) -> DocumentResult:
        return self[self._position[doc_id]]

    def has(self, doc_id: str) -> bool:
        return doc_id in self._position

    def close(self) -> None:
        self._file.close()
        self._loaded.clear()
        self._loaded_bytes = 0
        self._rule_index.clear()


class Stored(Sequence[T]):
    """An append-only list kept in an unnamed temporary file, pickled in chunks of ``chunk``
    items; the chunk being filled and the one last read are the only ones in memory."""

    def __init__(self, chunk: int = 1024) -> None:
        self._file = tempfile.TemporaryFile(prefix="kb-build-list-")  # noqa: SIM115
        self._size = chunk
        self._chunks: list[tuple[int, int]] = []
        self._tail: list[T] = []
        self._read: tuple[int, list[T]] = (-1, [])

    def append(self, item: T) -> None:
        self._tail.append(item)
        if len(self._tail) == self._size:
            data = pickle.dumps(self._tail, protocol=pickle.HIGHEST_PROTOCOL)
            self._chunks.append((self._file.seek(0, 2), len(data)))
            self._file.write(data)
            self._tail = []

    def extend(self, items: Iterable[T]) -> None:
        for item in items:
            self.append(item)

    def _chunk(self, n: int) -> list[T]:
        if n == len(self._chunks):
            return self._tail
        if self._read[0] != n:
            at, size = self._chunks[n]
            self._file.seek(at)
            self._read = (n, pickle.loads(self._file.read(size)))
        return self._read[1]

    def __len__(self) -> int:
        return len(self._chunks) * self._size + len(self._tail)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        index = range(len(self))[index]  # negative indices, and IndexError past the end
        return self._chunk(index // self._size)[index % self._size]

    def __iter__(self) -> Iterator[T]:
        for n in range(len(self._chunks) + 1):
            yield from self._chunk(n)

    def close(self) -> None:
        self._file.close()
        self._tail, self._read = [], (-1, [])


def stored(items: Iterable[T], chunk: int = 1024) -> Stored[T]:
    """``items`` moved to a temporary file: for a corpus-sized list that waits for the writer
    while later stages run (the translation checks, the infractions, the restriction lists).
    Large items take a smaller ``chunk`` (LARGE_CHUNK): the chunk being filled and the one
    last read stay in memory."""
    kept: Stored[T] = Stored(chunk)
    kept.extend(items)
    return kept


def close_all(*sequences: object) -> None:
    """Close the temporary files of those of ``sequences`` that are kept on disk."""
    for sequence in sequences:
        if isinstance(sequence, Documents | Stored):
            sequence.close()


class Rules(Mapping[str, Rule]):
    """Every rule of a ``Documents`` by id, its document loaded when asked."""

    def __init__(self, documents: Documents) -> None:
        self._documents = documents

    def __getitem__(self, rule_id: str) -> Rule:
        if not isinstance(rule_id, str):  # ``None in rules`` is a question, not an error
            raise KeyError(rule_id)
        return self._documents.rule(rule_id)

    def __iter__(self) -> Iterator[str]:
        for d in self._documents:
            yield from (r.id for r in d.rules)

    def __len__(self) -> int:
        return sum(len(d.rules) for d in self._documents)


class _InMemory:
    """``view`` of a plain list: the same questions, answered from the list."""

    def __init__(self, documents: Sequence[DocumentResult]) -> None:
        self.heads = documents
        self._by_id = {d.doc.doc_id: d for d in documents}
        self.rules: Mapping[str, Rule] = {r.id: r for d in documents for r in d.rules}

    def by_id(self, doc_id: str) -> DocumentResult:
        return self._by_id[doc_id]

    def has(self, doc_id: str) -> bool:
        return doc_id in self._by_id


def view(documents: Sequence[DocumentResult]) -> Documents | _InMemory:
    """``heads``, ``by_id``, ``has`` and ``rules`` of any sequence of documents."""
    return documents if isinstance(documents, Documents) else _InMemory(documents)
