"""The site's Datasette configuration (site/metadata.yaml and site/settings.json), read once."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..store.paths import site_dir


class ConfigError(Exception):
    """The site configuration is missing or wrong (shown as a one-line error)."""


@cache
def site_metadata() -> dict[str, Any]:
    import yaml

    path = site_dir() / "metadata.yaml"
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the site metadata ({exc.strerror})") from None


def site_settings(**overrides: Any) -> dict[str, Any]:
    """site/settings.json with ``overrides`` (tests and the load check adjust a few); unknown
    settings are an error, not silently ignored."""
    from datasette.app import DEFAULT_SETTINGS

    path = site_dir() / "settings.json"
    try:
        settings = {**json.loads(path.read_text(encoding="utf-8")), **overrides}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the site settings ({exc.strerror})") from None
    unknown = sorted(set(settings) - set(DEFAULT_SETTINGS))
    if unknown:
        raise ConfigError(f"unknown Datasette setting(s): {', '.join(unknown)}")
    return settings
