"""Age of Soccer: seven ancient teams build boards of players, train, and challenge each other for shields.
:data:`AGE_OF_SOCCER` is the rule set with its system players; :mod:`engine.age_of_soccer.rules` holds the rules as
settled."""

from engine.age_of_soccer.bots import BOTS, SEARCH
from engine.age_of_soccer.rules import AgeOfSoccer, AosMove, AosState, AosView
from engine.levels import with_levels

AGE_OF_SOCCER = with_levels(AgeOfSoccer(BOTS), SEARCH)

__all__ = ["AGE_OF_SOCCER", "AgeOfSoccer", "AosMove", "AosState", "AosView"]
