from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from kickoff.v1 import age_of_soccer_pb2 as _age_of_soccer_pb2
from kickoff.v1 import carta_pb2 as _carta_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from kickoff.v1 import soker_pb2 as _soker_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "seat_counts", "summary", "seat_choice", "levels", "team_seat_counts")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    SEAT_CHOICE_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    TEAM_SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    summary: str
    seat_choice: str
    levels: _containers.RepeatedScalarFieldContainer[str]
    team_seat_counts: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., seat_counts: _Optional[_Iterable[int]] = ..., summary: _Optional[str] = ..., seat_choice: _Optional[str] = ..., levels: _Optional[_Iterable[str]] = ..., team_seat_counts: _Optional[_Iterable[int]] = ...) -> None: ...

class GetRulesRequest(_message.Message):
    __slots__ = ("game", "options")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    game: str
    options: _struct_pb2.Struct
    def __init__(self, game: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class GetRulesResponse(_message.Message):
    __slots__ = ("rules",)
    RULES_FIELD_NUMBER: _ClassVar[int]
    rules: RuleSet
    def __init__(self, rules: _Optional[_Union[RuleSet, _Mapping]] = ...) -> None: ...

class RuleOption(_message.Message):
    __slots__ = ("name", "value", "default_value", "description", "minimum", "maximum")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    name: str
    value: _struct_pb2.Value
    default_value: _struct_pb2.Value
    description: str
    minimum: int
    maximum: int
    def __init__(self, name: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., default_value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., description: _Optional[str] = ..., minimum: _Optional[int] = ..., maximum: _Optional[int] = ...) -> None: ...

class RuleSet(_message.Message):
    __slots__ = ("game", "title", "deck_size", "seat_counts", "options", "levels")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    game: str
    title: str
    deck_size: int
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    options: _containers.RepeatedCompositeFieldContainer[RuleOption]
    levels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game: _Optional[str] = ..., title: _Optional[str] = ..., deck_size: _Optional[int] = ..., seat_counts: _Optional[_Iterable[int]] = ..., options: _Optional[_Iterable[_Union[RuleOption, _Mapping]]] = ..., levels: _Optional[_Iterable[str]] = ...) -> None: ...

class ListCardsRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class ListCardsResponse(_message.Message):
    __slots__ = ("game", "cards")
    GAME_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    game: str
    cards: _containers.RepeatedCompositeFieldContainer[CardFace]
    def __init__(self, game: _Optional[str] = ..., cards: _Optional[_Iterable[_Union[CardFace, _Mapping]]] = ...) -> None: ...

class CardFace(_message.Message):
    __slots__ = ("code", "name", "kind", "copies", "text", "soker", "age_of_soccer", "carta", "generic")
    CODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    COPIES_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SOKER_FIELD_NUMBER: _ClassVar[int]
    AGE_OF_SOCCER_FIELD_NUMBER: _ClassVar[int]
    CARTA_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    code: str
    name: str
    kind: str
    copies: int
    text: str
    soker: _soker_pb2.SokerCardFace
    age_of_soccer: _age_of_soccer_pb2.AgeOfSoccerCardFace
    carta: _carta_pb2.CartaCardFace
    generic: _struct_pb2.Struct
    def __init__(self, code: _Optional[str] = ..., name: _Optional[str] = ..., kind: _Optional[str] = ..., copies: _Optional[int] = ..., text: _Optional[str] = ..., soker: _Optional[_Union[_soker_pb2.SokerCardFace, _Mapping]] = ..., age_of_soccer: _Optional[_Union[_age_of_soccer_pb2.AgeOfSoccerCardFace, _Mapping]] = ..., carta: _Optional[_Union[_carta_pb2.CartaCardFace, _Mapping]] = ..., generic: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
