"""What each page of the website shows, as plain data; the routes render it to HTML or JSON.

One module per family of pages: ``rules`` (home, games, documents, sections, rules, search),
``cards``, ``timing``, ``ask``, ``compare`` (translations side by side) and ``history``
(versions). A page function takes an open read-only connection (Datasette's, or
``kb.store.db.connect``) and returns a dict, or None when the thing asked for does not exist (the
route answers 404). There is no HTML here: the templates and ``kb.web.html`` produce it, so the
dict a page function returns is also that page's JSON, and a test can check a page without a
web server.

URLs are part of the data (every dict carries the ``url`` of what it describes) because they
are stable identifiers: a rule's permalink is ``/rule/<rule id>`` for as long as its id lives.
They are built in ``kb.web.urls``.
"""
