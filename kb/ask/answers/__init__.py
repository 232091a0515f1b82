"""Composed answers, built from the stored structure and never from text written for one
question: one module per kind of question.

* ``vs``: two cards (``Honest vs Honest``), from the worked example naming both;
* ``card_at_moment``: a card at a moment, from the sentences of the moment's rules naming it;
* ``moment``: what the moment's rules say may happen there;
* ``restriction``: a card on the restriction lists.

Every statement carries the rule ids it comes from; warnings say when the source is old,
unofficial or machine-translated, and when a card's rulings are known to have changed.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..question import Understood
from .card_at_moment import card_at_moment_answer
from .moment import moment_answer
from .restriction import asks_restriction, restriction_answer
from .vs import vs_answer


def compose(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    """A composed answer when the question names two cards, a card and a moment, a moment, or
    a card and its restriction status; None otherwise."""
    if u.cards and not u.timing and asks_restriction(u):
        return restriction_answer(conn, u)
    if u.vs:
        return vs_answer(conn, u)
    if u.cards and u.timing:
        return card_at_moment_answer(conn, u)
    if u.timing and not u.cards:
        return moment_answer(conn, u)
    return None
