"""The ``kb`` command line: ``fast`` answers a plain ``kb ask`` without importing click;
``commands`` defines every command with click; ``render`` formats results for a terminal.

Kept empty on purpose: ``kb ask`` imports this package on its way to ``kb.cli.fast``.
"""
