"""Parts of the bundled corpus, for tests of what a build does rather than what it finds: a
build of the whole corpus takes about twelve seconds, of two short documents about one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

# Two short documents with their Vietnamese blocks: the Force of Will and Vanguard basic rules.
SMALL_CORPUS_FILES = ("000_adc673ffe3cd143c.txt", "001_da597713579df55f.txt")


def copy_corpus_subset(target: Path, files: tuple[str, ...]) -> Path:
    """The bundled corpus cut to ``files``: their manifest entries (with their variants and
    heading hints) and the manifest's header and games, the other entries left out."""
    target.mkdir(parents=True)
    text = (CORPUS / "sources.toml").read_text(encoding="utf-8")
    head, *entries = re.split(r"(?m)^(?=\[\[documents\]\]$)", text)
    kept = [e for e in entries if re.findall(r'(?m)^file = "([^"]+)"$', e)[0] in files]
    assert len(kept) == len(files), f"not all of {files} are in the manifest"
    (target / "sources.toml").write_text(head + "".join(kept), encoding="utf-8")
    for name in files:
        shutil.copy(CORPUS / name, target / name)
    return target
