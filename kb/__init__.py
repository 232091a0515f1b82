"""The rules knowledge base: store, search, answers and the ``kb`` command-line tool."""
