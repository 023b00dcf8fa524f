"""Carta Fútbol Club: two teams pass, dribble and shoot with cards. :data:`CARTA` is the rule set with its system
players; :mod:`engine.carta.rules` holds the rules as settled."""

from engine.carta.bots import BOTS, SEARCH
from engine.carta.rules import CartaFutbolClub, CartaMove, CartaState, CartaView
from engine.levels import with_levels

CARTA = with_levels(CartaFutbolClub(BOTS), SEARCH)

__all__ = ["CARTA", "CartaFutbolClub", "CartaMove", "CartaState", "CartaView"]
