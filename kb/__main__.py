"""``python -m kb``: the same command as ``kb``."""

from .entry import main

main()
