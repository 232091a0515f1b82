"""Domain errors of the ingestion pipeline. The CLI turns them into one-line messages."""

from __future__ import annotations


class IngestError(Exception):
    """Bad input: names the file (and line, when known) and the cause in one line."""

    def __init__(self, file: str, cause: str, *, line: int | None = None, stage: str = "") -> None:
        self.file = file
        self.cause = cause
        self.line = line
        self.stage = stage
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        stage = f" [{self.stage}]" if self.stage else ""
        return f"{where}: {self.cause}{stage}"


class StageError(IngestError):
    """A stage produced or received a malformed record (a bug or an unforeseen input)."""
