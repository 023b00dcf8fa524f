from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SokerMove(_message.Message):
    __slots__ = ("play", "draw", "end_turn")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    play: SokerPlay
    draw: SokerDraw
    end_turn: SokerEndTurn
    def __init__(self, play: _Optional[_Union[SokerPlay, _Mapping]] = ..., draw: _Optional[_Union[SokerDraw, _Mapping]] = ..., end_turn: _Optional[_Union[SokerEndTurn, _Mapping]] = ...) -> None: ...

class SokerPlay(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class SokerDraw(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SokerEndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SokerView(_message.Message):
    __slots__ = ("hand", "hand_sizes", "top_card", "joker_as_club", "deck_size", "discard_size", "current", "drawn", "points")
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    TOP_CARD_FIELD_NUMBER: _ClassVar[int]
    JOKER_AS_CLUB_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    top_card: str
    joker_as_club: str
    deck_size: int
    discard_size: int
    current: int
    drawn: bool
    points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand: _Optional[_Iterable[str]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., top_card: _Optional[str] = ..., joker_as_club: _Optional[str] = ..., deck_size: _Optional[int] = ..., discard_size: _Optional[int] = ..., current: _Optional[int] = ..., drawn: _Optional[bool] = ..., points: _Optional[_Iterable[int]] = ...) -> None: ...

class SokerEvent(_message.Message):
    __slots__ = ("turn_began", "played", "drew", "reshuffled", "skipped", "turn_ended")
    TURN_BEGAN_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    DREW_FIELD_NUMBER: _ClassVar[int]
    RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    turn_began: SokerTurnBegan
    played: SokerPlayed
    drew: SokerDrew
    reshuffled: SokerReshuffled
    skipped: SokerSkipped
    turn_ended: SokerTurnEnded
    def __init__(self, turn_began: _Optional[_Union[SokerTurnBegan, _Mapping]] = ..., played: _Optional[_Union[SokerPlayed, _Mapping]] = ..., drew: _Optional[_Union[SokerDrew, _Mapping]] = ..., reshuffled: _Optional[_Union[SokerReshuffled, _Mapping]] = ..., skipped: _Optional[_Union[SokerSkipped, _Mapping]] = ..., turn_ended: _Optional[_Union[SokerTurnEnded, _Mapping]] = ...) -> None: ...

class SokerTurnBegan(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class SokerPlayed(_message.Message):
    __slots__ = ("seat", "cards", "link", "joker_as_club")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    JOKER_AS_CLUB_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    link: bool
    joker_as_club: str
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., link: _Optional[bool] = ..., joker_as_club: _Optional[str] = ...) -> None: ...

class SokerDrew(_message.Message):
    __slots__ = ("seat", "count", "card", "cause")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    card: str
    cause: str
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., card: _Optional[str] = ..., cause: _Optional[str] = ...) -> None: ...

class SokerReshuffled(_message.Message):
    __slots__ = ("deck_size",)
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    deck_size: int
    def __init__(self, deck_size: _Optional[int] = ...) -> None: ...

class SokerSkipped(_message.Message):
    __slots__ = ("seats", "cause")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    cause: str
    def __init__(self, seats: _Optional[_Iterable[int]] = ..., cause: _Optional[str] = ...) -> None: ...

class SokerTurnEnded(_message.Message):
    __slots__ = ("seat", "by_table")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BY_TABLE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    by_table: bool
    def __init__(self, seat: _Optional[int] = ..., by_table: _Optional[bool] = ...) -> None: ...

class SokerCardFace(_message.Message):
    __slots__ = ("country", "country_code", "country_colour", "country_rgb", "position", "position_name", "club", "club_name", "ring_colour", "ring_rgb", "legend")
    COUNTRY_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_CODE_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_COLOUR_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_RGB_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    POSITION_NAME_FIELD_NUMBER: _ClassVar[int]
    CLUB_FIELD_NUMBER: _ClassVar[int]
    CLUB_NAME_FIELD_NUMBER: _ClassVar[int]
    RING_COLOUR_FIELD_NUMBER: _ClassVar[int]
    RING_RGB_FIELD_NUMBER: _ClassVar[int]
    LEGEND_FIELD_NUMBER: _ClassVar[int]
    country: str
    country_code: str
    country_colour: str
    country_rgb: str
    position: str
    position_name: str
    club: str
    club_name: str
    ring_colour: str
    ring_rgb: str
    legend: str
    def __init__(self, country: _Optional[str] = ..., country_code: _Optional[str] = ..., country_colour: _Optional[str] = ..., country_rgb: _Optional[str] = ..., position: _Optional[str] = ..., position_name: _Optional[str] = ..., club: _Optional[str] = ..., club_name: _Optional[str] = ..., ring_colour: _Optional[str] = ..., ring_rgb: _Optional[str] = ..., legend: _Optional[str] = ...) -> None: ...
