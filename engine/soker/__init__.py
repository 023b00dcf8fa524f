"""Soker: the flagship game. :data:`SOKER` is the rule set with its system players; see :mod:`engine.soker.rules` for
the rules as settled."""

from engine.soker.bots import BOTS
from engine.soker.rules import Soker, SokerMove, SokerState, SokerView

SOKER = Soker(BOTS)

__all__ = ["SOKER", "Soker", "SokerMove", "SokerState", "SokerView"]
