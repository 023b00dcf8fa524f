"""Game name -> codec: how each game's moves, views and events travel as proto messages, built the way
:mod:`engine.registry` builds its table of games. A game with messages of its own in the contract has its codec here
(``<game>_codec.py``, a subclass of the generic :class:`Codec` in generic_codec.py); any other game travels in the
generic form, and a game the tests host registers its codec with :func:`register`.
"""

from __future__ import annotations

from engine.core import Game
from service.grpc.age_of_soccer_codec import AgeOfSoccerCodec
from service.grpc.carta_codec import CartaCodec
from service.grpc.generic_codec import Codec
from service.grpc.soker_codec import SokerCodec

__all__ = ["CODECS", "Codec", "codec_of", "register"]

CODECS: dict[str, Codec] = {codec.name: codec for codec in (SokerCodec(), AgeOfSoccerCodec(), CartaCodec())}


def register(codec: Codec) -> None:
    """Use ``codec`` for its game in this process, beside the codecs above (a game the tests host)."""
    CODECS[codec.name] = codec


def codec_of(game: Game) -> Codec:
    """The game's codec: its own, or the generic one."""
    codec = CODECS.get(game.spec.name)
    if codec is None or codec.game is not game:
        codec = CODECS[game.spec.name] = Codec(game)
    return codec
