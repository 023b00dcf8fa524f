from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AgeOfSoccerMove(_message.Message):
    __slots__ = ("pick", "trade", "play", "board", "bench", "discard", "draft", "challenge", "end_turn", "eagle_eye", "cup_run", "park_the_bus", "shoot", "stop", "answer")
    PICK_FIELD_NUMBER: _ClassVar[int]
    TRADE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    BENCH_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    DRAFT_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    EAGLE_EYE_FIELD_NUMBER: _ClassVar[int]
    CUP_RUN_FIELD_NUMBER: _ClassVar[int]
    PARK_THE_BUS_FIELD_NUMBER: _ClassVar[int]
    SHOOT_FIELD_NUMBER: _ClassVar[int]
    STOP_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    pick: AgeOfSoccerPick
    trade: AgeOfSoccerTrade
    play: AgeOfSoccerPlay
    board: AgeOfSoccerBoard
    bench: AgeOfSoccerBench
    discard: AgeOfSoccerDiscard
    draft: AgeOfSoccerDraft
    challenge: AgeOfSoccerChallenge
    end_turn: AgeOfSoccerEndTurn
    eagle_eye: AgeOfSoccerEagleEye
    cup_run: AgeOfSoccerCupRun
    park_the_bus: AgeOfSoccerParkTheBus
    shoot: AgeOfSoccerShoot
    stop: AgeOfSoccerStop
    answer: AgeOfSoccerAnswer
    def __init__(self, pick: _Optional[_Union[AgeOfSoccerPick, _Mapping]] = ..., trade: _Optional[_Union[AgeOfSoccerTrade, _Mapping]] = ..., play: _Optional[_Union[AgeOfSoccerPlay, _Mapping]] = ..., board: _Optional[_Union[AgeOfSoccerBoard, _Mapping]] = ..., bench: _Optional[_Union[AgeOfSoccerBench, _Mapping]] = ..., discard: _Optional[_Union[AgeOfSoccerDiscard, _Mapping]] = ..., draft: _Optional[_Union[AgeOfSoccerDraft, _Mapping]] = ..., challenge: _Optional[_Union[AgeOfSoccerChallenge, _Mapping]] = ..., end_turn: _Optional[_Union[AgeOfSoccerEndTurn, _Mapping]] = ..., eagle_eye: _Optional[_Union[AgeOfSoccerEagleEye, _Mapping]] = ..., cup_run: _Optional[_Union[AgeOfSoccerCupRun, _Mapping]] = ..., park_the_bus: _Optional[_Union[AgeOfSoccerParkTheBus, _Mapping]] = ..., shoot: _Optional[_Union[AgeOfSoccerShoot, _Mapping]] = ..., stop: _Optional[_Union[AgeOfSoccerStop, _Mapping]] = ..., answer: _Optional[_Union[AgeOfSoccerAnswer, _Mapping]] = ..., **kwargs) -> None: ...

class AgeOfSoccerPick(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: bool
    def __init__(self, player: _Optional[bool] = ...) -> None: ...

class AgeOfSoccerTrade(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class AgeOfSoccerPlay(_message.Message):
    __slots__ = ("card", "target", "positions", "player", "recipient")
    CARD_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    RECIPIENT_FIELD_NUMBER: _ClassVar[int]
    card: str
    target: int
    positions: _containers.RepeatedScalarFieldContainer[int]
    player: str
    recipient: int
    def __init__(self, card: _Optional[str] = ..., target: _Optional[int] = ..., positions: _Optional[_Iterable[int]] = ..., player: _Optional[str] = ..., recipient: _Optional[int] = ...) -> None: ...

class AgeOfSoccerBoard(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class AgeOfSoccerBench(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class AgeOfSoccerPass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AgeOfSoccerDiscard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class AgeOfSoccerDraft(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class AgeOfSoccerChallenge(_message.Message):
    __slots__ = ("target", "eagle_eyes", "cup_run")
    TARGET_FIELD_NUMBER: _ClassVar[int]
    EAGLE_EYES_FIELD_NUMBER: _ClassVar[int]
    CUP_RUN_FIELD_NUMBER: _ClassVar[int]
    target: int
    eagle_eyes: int
    cup_run: bool
    def __init__(self, target: _Optional[int] = ..., eagle_eyes: _Optional[int] = ..., cup_run: _Optional[bool] = ...) -> None: ...

class AgeOfSoccerEndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AgeOfSoccerEagleEye(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AgeOfSoccerCupRun(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AgeOfSoccerParkTheBus(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AgeOfSoccerShoot(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class AgeOfSoccerStop(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AgeOfSoccerAnswer(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class AgeOfSoccerView(_message.Message):
    __slots__ = ("seats", "active", "phase", "turn", "traded", "challenged", "player_deck", "action_deck", "player_discard", "action_discard_top", "action_discard_size", "challenge", "match", "shot", "window", "draft", "hand")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TRADED_FIELD_NUMBER: _ClassVar[int]
    CHALLENGED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_DECK_FIELD_NUMBER: _ClassVar[int]
    ACTION_DECK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_DISCARD_FIELD_NUMBER: _ClassVar[int]
    ACTION_DISCARD_TOP_FIELD_NUMBER: _ClassVar[int]
    ACTION_DISCARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SHOT_FIELD_NUMBER: _ClassVar[int]
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    DRAFT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[AgeOfSoccerSeat]
    active: int
    phase: str
    turn: int
    traded: bool
    challenged: _containers.RepeatedScalarFieldContainer[int]
    player_deck: int
    action_deck: int
    player_discard: _containers.RepeatedScalarFieldContainer[str]
    action_discard_top: str
    action_discard_size: int
    challenge: AgeOfSoccerChallengeState
    match: AgeOfSoccerMatch
    shot: AgeOfSoccerShot
    window: AgeOfSoccerWindow
    draft: AgeOfSoccerDraftState
    hand: AgeOfSoccerHand
    def __init__(self, seats: _Optional[_Iterable[_Union[AgeOfSoccerSeat, _Mapping]]] = ..., active: _Optional[int] = ..., phase: _Optional[str] = ..., turn: _Optional[int] = ..., traded: _Optional[bool] = ..., challenged: _Optional[_Iterable[int]] = ..., player_deck: _Optional[int] = ..., action_deck: _Optional[int] = ..., player_discard: _Optional[_Iterable[str]] = ..., action_discard_top: _Optional[str] = ..., action_discard_size: _Optional[int] = ..., challenge: _Optional[_Union[AgeOfSoccerChallengeState, _Mapping]] = ..., match: _Optional[_Union[AgeOfSoccerMatch, _Mapping]] = ..., shot: _Optional[_Union[AgeOfSoccerShot, _Mapping]] = ..., window: _Optional[_Union[AgeOfSoccerWindow, _Mapping]] = ..., draft: _Optional[_Union[AgeOfSoccerDraftState, _Mapping]] = ..., hand: _Optional[_Union[AgeOfSoccerHand, _Mapping]] = ...) -> None: ...

class AgeOfSoccerSeat(_message.Message):
    __slots__ = ("seat", "team", "board", "attack", "defence", "shields", "won", "players_held", "actions_held", "red_cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_FIELD_NUMBER: _ClassVar[int]
    SHIELDS_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_HELD_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_HELD_FIELD_NUMBER: _ClassVar[int]
    RED_CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: str
    board: _containers.RepeatedScalarFieldContainer[str]
    attack: int
    defence: int
    shields: int
    won: _containers.RepeatedScalarFieldContainer[int]
    players_held: int
    actions_held: int
    red_cards: int
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[str] = ..., board: _Optional[_Iterable[str]] = ..., attack: _Optional[int] = ..., defence: _Optional[int] = ..., shields: _Optional[int] = ..., won: _Optional[_Iterable[int]] = ..., players_held: _Optional[int] = ..., actions_held: _Optional[int] = ..., red_cards: _Optional[int] = ...) -> None: ...

class AgeOfSoccerChallengeState(_message.Message):
    __slots__ = ("target", "eagles", "buses", "cuprun", "mover")
    TARGET_FIELD_NUMBER: _ClassVar[int]
    EAGLES_FIELD_NUMBER: _ClassVar[int]
    BUSES_FIELD_NUMBER: _ClassVar[int]
    CUPRUN_FIELD_NUMBER: _ClassVar[int]
    MOVER_FIELD_NUMBER: _ClassVar[int]
    target: int
    eagles: int
    buses: int
    cuprun: bool
    mover: int
    def __init__(self, target: _Optional[int] = ..., eagles: _Optional[int] = ..., buses: _Optional[int] = ..., cuprun: _Optional[bool] = ..., mover: _Optional[int] = ...) -> None: ...

class AgeOfSoccerMatch(_message.Message):
    __slots__ = ("attacker", "defender", "shots", "counter")
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    SHOTS_FIELD_NUMBER: _ClassVar[int]
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    attacker: int
    defender: int
    shots: int
    counter: bool
    def __init__(self, attacker: _Optional[int] = ..., defender: _Optional[int] = ..., shots: _Optional[int] = ..., counter: _Optional[bool] = ...) -> None: ...

class AgeOfSoccerShot(_message.Message):
    __slots__ = ("super", "activated")
    SUPER_FIELD_NUMBER: _ClassVar[int]
    ACTIVATED_FIELD_NUMBER: _ClassVar[int]
    super: bool
    activated: bool
    def __init__(self, super: _Optional[bool] = ..., activated: _Optional[bool] = ...) -> None: ...

class AgeOfSoccerWindow(_message.Message):
    __slots__ = ("order", "passed", "answered")
    ORDER_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    ANSWERED_FIELD_NUMBER: _ClassVar[int]
    order: _containers.RepeatedScalarFieldContainer[int]
    passed: _containers.RepeatedScalarFieldContainer[int]
    answered: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, order: _Optional[_Iterable[int]] = ..., passed: _Optional[_Iterable[int]] = ..., answered: _Optional[_Iterable[int]] = ...) -> None: ...

class AgeOfSoccerDraftState(_message.Message):
    __slots__ = ("cards", "order", "turn")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    order: _containers.RepeatedScalarFieldContainer[int]
    turn: int
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., order: _Optional[_Iterable[int]] = ..., turn: _Optional[int] = ...) -> None: ...

class AgeOfSoccerHand(_message.Message):
    __slots__ = ("players", "actions")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedScalarFieldContainer[str]
    actions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, players: _Optional[_Iterable[str]] = ..., actions: _Optional[_Iterable[str]] = ...) -> None: ...

class AgeOfSoccerEvent(_message.Message):
    __slots__ = ("kind", "seat", "target", "cards", "private_cards", "other", "count", "attack", "defence", "activated", "deck", "cause")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_CARDS_FIELD_NUMBER: _ClassVar[int]
    OTHER_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_FIELD_NUMBER: _ClassVar[int]
    ACTIVATED_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    target: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    private_cards: _containers.RepeatedScalarFieldContainer[str]
    other: int
    count: int
    attack: int
    defence: int
    activated: bool
    deck: str
    cause: str
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., target: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., private_cards: _Optional[_Iterable[str]] = ..., other: _Optional[int] = ..., count: _Optional[int] = ..., attack: _Optional[int] = ..., defence: _Optional[int] = ..., activated: _Optional[bool] = ..., deck: _Optional[str] = ..., cause: _Optional[str] = ...) -> None: ...

class AgeOfSoccerCardFace(_message.Message):
    __slots__ = ("team", "team_name", "position", "position_name", "attack", "defence", "action", "training")
    TEAM_FIELD_NUMBER: _ClassVar[int]
    TEAM_NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    POSITION_NAME_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TRAINING_FIELD_NUMBER: _ClassVar[int]
    team: str
    team_name: str
    position: str
    position_name: str
    attack: int
    defence: int
    action: str
    training: bool
    def __init__(self, team: _Optional[str] = ..., team_name: _Optional[str] = ..., position: _Optional[str] = ..., position_name: _Optional[str] = ..., attack: _Optional[int] = ..., defence: _Optional[int] = ..., action: _Optional[str] = ..., training: _Optional[bool] = ...) -> None: ...
