"""Soker: the flagship game. :data:`SOKER` is the rule set; see :mod:`engine.soker.rules` for the rules as settled."""

from engine.soker.rules import SOKER, Soker, SokerMove, SokerState, SokerView

__all__ = ["SOKER", "Soker", "SokerMove", "SokerState", "SokerView"]
