"""Soker: the flagship game. :data:`SOKER` is the rule set with its system players; see :mod:`engine.soker.rules` for
the rules as settled."""

from engine.levels import with_levels
from engine.soker.bots import BOTS, SEARCH
from engine.soker.rules import Soker, SokerMove, SokerState, SokerView

SOKER = with_levels(Soker(BOTS), SEARCH)

__all__ = ["SOKER", "Soker", "SokerMove", "SokerState", "SokerView"]
