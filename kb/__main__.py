"""``python -m kb``: the same command as ``kb``."""

from .cli.fast import main

main()
