"""The rules website: a Datasette plugin (hooks in kb.web.hooks, routes in kb.web.routes,
page data in kb.web.pages, templates and static files as package data).

The package is the plugin Datasette registers through the ``datasette`` entry point, so its
hook functions are importable from here.
"""

from .hooks import (
    asgi_wrapper,
    canned_queries,
    extra_template_vars,
    get_metadata,
    prepare_connection,
    prepare_jinja2_environment,
    register_routes,
    startup,
)

__all__ = [
    "asgi_wrapper",
    "canned_queries",
    "extra_template_vars",
    "get_metadata",
    "prepare_connection",
    "prepare_jinja2_environment",
    "register_routes",
    "startup",
]
