"""Carta Fútbol Club: two teams pass, dribble and shoot with cards. :data:`CARTA` is the rule set with its system
players; :mod:`engine.carta.rules` holds the rules as settled."""

from engine.carta.bots import BOTS
from engine.carta.rules import CartaFutbolClub, CartaMove, CartaState, CartaView

CARTA = CartaFutbolClub(BOTS)

__all__ = ["CARTA", "CartaFutbolClub", "CartaMove", "CartaState", "CartaView"]
