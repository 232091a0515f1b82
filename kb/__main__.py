"""``python -m kb``: the same command as ``kb``."""

from .cli import main

main()
