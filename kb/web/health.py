"""``/-/kb-health``: is this replica able to answer? For the load balancer's health check.

It runs a tiny query the way pages run theirs: on the served connection (Datasette's SQL
threads) and in an ask/search worker (kb.web.offload, ahead of the waiting requests), both
within ``health_seconds`` of kb/data/limits.toml [web]. 200 with the database version when
both answered; 503 otherwise (workers not started yet, all stuck, the SQL threads blocked), so
the balancer takes the replica out until it answers again. A frozen server process does not
answer at all, which the balancer's ``timeout check`` counts as a failure too.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from datasette.utils.asgi import Response

import queries

from ..limits import limits
from . import offload
from .database import pinned
from .views import kb_database

if TYPE_CHECKING:
    from datasette.app import Datasette
    from datasette.utils.asgi import Request

PATH = r"^/-/kb-health(?P<format>\.json)?$"


async def _probe(datasette: Datasette) -> None:
    """The schema version, read on the served connection and in a worker."""
    sql = queries.load("meta_value").sql
    await kb_database(datasette).execute(sql, {"key": "schema_version"})
    await offload.check(datasette)


async def health(datasette: Datasette, request: Request) -> Response:
    seconds = float(limits()["web"]["health_seconds"])
    version = pinned()
    data: dict[str, object] = {"database": version.label if version else None}
    try:
        await asyncio.wait_for(_probe(datasette), seconds)
    except TimeoutError:
        return _answer({**data, "ok": False, "error": f"no answer within {seconds:g} s"}, 503)
    except Exception as exc:  # a failed query, no worker: this replica cannot answer
        return _answer({**data, "ok": False, "error": f"{type(exc).__name__}: {exc}"}, 503)
    return _answer({**data, "ok": True}, 200)


def _answer(data: dict[str, object], status: int) -> Response:
    response = Response.json(data, status=status)
    response.headers["cache-control"] = "no-store"
    return response
