"""Datasette's own templates, patched as they load instead of copied whole.

The few lines the site changes in Datasette's pages (labels on its controls, landmarks, the
site's header) are listed in kb/web/datasette_templates.toml as exact text to find and its
replacement. ``PatchedLoader`` wraps Datasette's template loader: a template of Datasette's
own folder gets its patches applied; every other template (the site's kb_*.html) is left
alone. A patch whose text is not in the pinned template exactly once is an error when the
site starts, never a page silently left unpatched.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, Environment, TemplateNotFound

PATCHES = Path(__file__).with_name("datasette_templates.toml")


class TemplatePatchError(Exception):
    """A patch of datasette_templates.toml that does not fit Datasette's template."""


def load_patches(path: Path = PATCHES) -> dict[str, list[dict[str, str]]]:
    """Template name -> its patches, in file order."""
    out: dict[str, list[dict[str, str]]] = {}
    for patch in tomllib.loads(path.read_text(encoding="utf-8"))["patch"]:
        out.setdefault(patch["template"], []).append(patch)
    return out


def apply(name: str, source: str, patches: list[dict[str, str]]) -> str:
    """``source`` with every patch applied; TemplatePatchError when one does not fit."""
    for patch in patches:
        found = source.count(patch["find"])
        if found != 1:
            raise TemplatePatchError(
                f"kb/web/datasette_templates.toml: {name}: the text to patch ({patch['why']}) "
                f"occurs {found} times in Datasette's template, not once"
            )
        source = source.replace(patch["find"], patch["replace"])
    return source


class PatchedLoader(BaseLoader):
    """Datasette's loader, with the patches applied to the templates of ``default_dir``."""

    def __init__(self, inner: BaseLoader, default_dir: Path, patches: dict[str, Any]) -> None:
        self.inner, self.default_dir, self.patches = inner, default_dir.resolve(), patches

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.inner.get_source(environment, template)
        name = template.removeprefix("default:")
        own = filename is not None and Path(filename).resolve().parent == self.default_dir
        if own and name in self.patches:
            source = apply(name, source, self.patches[name])
        return source, filename, uptodate

    def list_templates(self) -> list[str]:
        return self.inner.list_templates()


def patch_environment(env: Environment) -> None:
    """Wrap ``env``'s loader (Datasette's) so its own templates load patched; every patch is
    tried once now, so a misfit stops the site at startup."""
    import datasette

    default_dir = Path(datasette.__file__).parent / "templates"
    patches = load_patches()
    for name, listed in patches.items():
        path = default_dir / name
        if not path.is_file():
            raise TemplateNotFound(name)
        apply(name, path.read_text(encoding="utf-8"), listed)
    if env.loader is not None and not isinstance(env.loader, PatchedLoader):
        env.loader = PatchedLoader(env.loader, default_dir, patches)
