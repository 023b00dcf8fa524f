from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CartaMove(_message.Message):
    __slots__ = ("call", "choose", "play", "down", "decline")
    CALL_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    DOWN_FIELD_NUMBER: _ClassVar[int]
    DECLINE_FIELD_NUMBER: _ClassVar[int]
    call: CartaCall
    choose: CartaChoose
    play: CartaPlay
    down: CartaDown
    decline: CartaDecline
    def __init__(self, call: _Optional[_Union[CartaCall, _Mapping]] = ..., choose: _Optional[_Union[CartaChoose, _Mapping]] = ..., play: _Optional[_Union[CartaPlay, _Mapping]] = ..., down: _Optional[_Union[CartaDown, _Mapping]] = ..., decline: _Optional[_Union[CartaDecline, _Mapping]] = ...) -> None: ...

class CartaCall(_message.Message):
    __slots__ = ("side",)
    SIDE_FIELD_NUMBER: _ClassVar[int]
    side: str
    def __init__(self, side: _Optional[str] = ...) -> None: ...

class CartaChoose(_message.Message):
    __slots__ = ("choice",)
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    choice: str
    def __init__(self, choice: _Optional[str] = ...) -> None: ...

class CartaPlay(_message.Message):
    __slots__ = ("card", "action")
    CARD_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    card: str
    action: str
    def __init__(self, card: _Optional[str] = ..., action: _Optional[str] = ...) -> None: ...

class CartaDown(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class CartaDecline(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CartaView(_message.Message):
    __slots__ = ("phase", "seats", "coin", "colours", "starter", "hand", "goals", "ball", "count", "actor", "decks", "luck_bottom", "pile", "pending", "offside", "shootout", "hand_cards", "played")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    COIN_FIELD_NUMBER: _ClassVar[int]
    COLOURS_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    GOALS_FIELD_NUMBER: _ClassVar[int]
    BALL_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    LUCK_BOTTOM_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    OFFSIDE_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_FIELD_NUMBER: _ClassVar[int]
    HAND_CARDS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    phase: str
    seats: _containers.RepeatedCompositeFieldContainer[CartaSeat]
    coin: CartaCoin
    colours: _containers.RepeatedScalarFieldContainer[str]
    starter: int
    hand: int
    goals: _containers.RepeatedScalarFieldContainer[int]
    ball: int
    count: int
    actor: int
    decks: CartaDecks
    luck_bottom: _containers.RepeatedCompositeFieldContainer[CartaCards]
    pile: int
    pending: CartaPending
    offside: CartaOffside
    shootout: CartaShootout
    hand_cards: _containers.RepeatedScalarFieldContainer[str]
    played: int
    def __init__(self, phase: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[CartaSeat, _Mapping]]] = ..., coin: _Optional[_Union[CartaCoin, _Mapping]] = ..., colours: _Optional[_Iterable[str]] = ..., starter: _Optional[int] = ..., hand: _Optional[int] = ..., goals: _Optional[_Iterable[int]] = ..., ball: _Optional[int] = ..., count: _Optional[int] = ..., actor: _Optional[int] = ..., decks: _Optional[_Union[CartaDecks, _Mapping]] = ..., luck_bottom: _Optional[_Iterable[_Union[CartaCards, _Mapping]]] = ..., pile: _Optional[int] = ..., pending: _Optional[_Union[CartaPending, _Mapping]] = ..., offside: _Optional[_Union[CartaOffside, _Mapping]] = ..., shootout: _Optional[_Union[CartaShootout, _Mapping]] = ..., hand_cards: _Optional[_Iterable[str]] = ..., played: _Optional[int] = ...) -> None: ...

class CartaSeat(_message.Message):
    __slots__ = ("seat", "team", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    cards: int
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., cards: _Optional[int] = ...) -> None: ...

class CartaCoin(_message.Message):
    __slots__ = ("call", "side", "winner")
    CALL_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    call: str
    side: str
    winner: int
    def __init__(self, call: _Optional[str] = ..., side: _Optional[str] = ..., winner: _Optional[int] = ...) -> None: ...

class CartaDecks(_message.Message):
    __slots__ = ("skill", "special", "luck")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    LUCK_FIELD_NUMBER: _ClassVar[int]
    skill: _containers.RepeatedScalarFieldContainer[int]
    special: _containers.RepeatedScalarFieldContainer[int]
    luck: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, skill: _Optional[_Iterable[int]] = ..., special: _Optional[_Iterable[int]] = ..., luck: _Optional[_Iterable[int]] = ...) -> None: ...

class CartaCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class CartaPending(_message.Message):
    __slots__ = ("seat", "action", "value", "card", "down")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    DOWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: str
    value: int
    card: str
    down: bool
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[str] = ..., value: _Optional[int] = ..., card: _Optional[str] = ..., down: _Optional[bool] = ...) -> None: ...

class CartaOffside(_message.Message):
    __slots__ = ("caller", "card")
    CALLER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    caller: int
    card: str
    def __init__(self, caller: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class CartaShootout(_message.Message):
    __slots__ = ("kicks", "scored", "sudden")
    KICKS_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    SUDDEN_FIELD_NUMBER: _ClassVar[int]
    kicks: _containers.RepeatedScalarFieldContainer[int]
    scored: _containers.RepeatedScalarFieldContainer[int]
    sudden: int
    def __init__(self, kicks: _Optional[_Iterable[int]] = ..., scored: _Optional[_Iterable[int]] = ..., sudden: _Optional[int] = ...) -> None: ...

class CartaEvent(_message.Message):
    __slots__ = ("kind", "seat", "target", "cards", "private_cards", "count", "call", "coin", "winner", "choice", "colours", "team", "action", "value", "play", "answer", "outcome", "goal", "goals", "hand", "shootout", "kicks", "scored")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    COIN_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    COLOURS_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    GOALS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_FIELD_NUMBER: _ClassVar[int]
    KICKS_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    target: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    private_cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    call: str
    coin: str
    winner: int
    choice: str
    colours: _containers.RepeatedScalarFieldContainer[str]
    team: int
    action: str
    value: int
    play: int
    answer: bool
    outcome: str
    goal: bool
    goals: _containers.RepeatedScalarFieldContainer[int]
    hand: int
    shootout: bool
    kicks: _containers.RepeatedScalarFieldContainer[int]
    scored: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., target: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., private_cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ..., call: _Optional[str] = ..., coin: _Optional[str] = ..., winner: _Optional[int] = ..., choice: _Optional[str] = ..., colours: _Optional[_Iterable[str]] = ..., team: _Optional[int] = ..., action: _Optional[str] = ..., value: _Optional[int] = ..., play: _Optional[int] = ..., answer: _Optional[bool] = ..., outcome: _Optional[str] = ..., goal: _Optional[bool] = ..., goals: _Optional[_Iterable[int]] = ..., hand: _Optional[int] = ..., shootout: _Optional[bool] = ..., kicks: _Optional[_Iterable[int]] = ..., scored: _Optional[_Iterable[int]] = ...) -> None: ...

class CartaCardFace(_message.Message):
    __slots__ = ("deck", "deck_code", "group", "number", "actions")
    DECK_FIELD_NUMBER: _ClassVar[int]
    DECK_CODE_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    deck: str
    deck_code: str
    group: str
    number: int
    actions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, deck: _Optional[str] = ..., deck_code: _Optional[str] = ..., group: _Optional[str] = ..., number: _Optional[int] = ..., actions: _Optional[_Iterable[str]] = ...) -> None: ...
