"""space_after_rule_number: a rule number run into the text it numbers.

The Chinese extraction of a dotted rulebook lost the space after some rule numbers
(``1.10.2.多人游戏的规则…``), so the line no longer reads as rule 1.10.2. A number of two or
more parts closed by a full stop, at the start of a line and directly followed by a letter of
any script, gets its space back. A number not closed by a full stop (``6.2“卡面简介”``, a
cross-reference carried onto the line) is left alone.
"""

from __future__ import annotations

import re

from .base import map_lines

_GLUED = re.compile(r"^(\s*\d{1,3}(?:\.\d{1,3})+\.)(?=[^\W\d_])")

space_after_rule_number = map_lines(_GLUED, lambda m: m.group(1) + " ", "space_after_rule_number")
