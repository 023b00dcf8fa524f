"""What the REST operations say that their google.api.http bindings cannot: one declared table, keyed by operation
id (the RPC's name), of each operation's words for people (summary, description, example), its security
requirements, and the few choices of its answer (201 for a creation, no caching, the caller's metadata passed on, a
longer deadline). routes.py builds every route from the bindings in proto/ and reads this table for the rest.

Why a table here rather than a custom option in proto/: the words and examples are the REST document's, for a
front-end's authors, not the contract's (the gRPC reader has the RPC's comment); examples are JSON, which reads and
shares (TICKET_EXAMPLE) far better as Python than as a string in a proto option; and changing them never touches the
released contract that `buf breaking` guards.

Defaults, so that a new RPC needs only its annotation: the tag and caching are its service's (SERVICES), the summary
its name in words, no security requirement and no metadata passed on, 200. An operation lists here only what differs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from litestar.openapi.spec import SecurityRequirement

from service.gateway.openapi import (
    CREATOR,
    CREATOR_OR_PLAYER,
    OPERATOR,
    PLAYER,
    PLAYER_OR_ANYONE,
    SEAT,
    SEAT_OR_PLAYER,
    SEAT_OR_SPECTATOR,
)


@dataclass(frozen=True)
class Service:
    """What every operation of a gRPC service shares: its tag in the document, the Upstream field of the stub it
    calls (calls.py; "": a stub made on first use), whether its answers are private (``Cache-Control: no-store,
    private``), whether a call that addresses a room (``{room_id}`` in its path) goes to the room's owner
    (calls.room_call), and the cheap call that checks an operator key before any field is read (``key_check``: the
    method and its request's fields; calls.key_first)."""

    tag: str
    stub: str
    private: bool = False
    owner: bool = False
    key_check: tuple[str, dict[str, Any]] | None = None


CHAT_REPORT_EXAMPLE: dict[str, Any] = {
    "reportId": "5d1c9a7e2b3f4a60",
    "roomId": "7QxW2mB9",
    "reporterId": "3f2a9c1d4e5b6a708192",
    "reason": "insults",
    "message": {
        "seq": "42",
        "channel": "players",
        "playerId": "8d0e4b2a1c3f5a6b7c8d",
        "name": "Bo",
        "text": "...",
        "sendTime": "2026-12-06T10:00:00Z",
    },
    "createTime": "2026-12-06T10:01:00Z",
    "open": True,
}

SERVICES: dict[str, Service] = {
    "kickoff.v1.GameService": Service("games", "games"),
    "kickoff.v1.RoomService": Service("rooms", "rooms", owner=True),
    "kickoff.v1.MoveService": Service("play", "moves", owner=True),
    "kickoff.v1.TournamentService": Service("tournaments", "tournaments"),
    "kickoff.v1.PlayerService": Service("players", "players"),
    "kickoff.v1.MatchService": Service("matchmaking", "matches", private=True),
    "kickoff.v1.WebhookService": Service("operators", "webhooks", private=True, key_check=("ListEndpoints", {})),
    "kickoff.v1.InboxService": Service("inbox", "", private=True),  # (issue 48)
    "kickoff.v1.OperatorService": Service("operators", "", private=True, key_check=("ListNodes", {"page_size": 1})),
    "kickoff.v1.FriendService": Service("friends", "", private=True),  # (issue 48)
    "kickoff.v1.PresenceService": Service("presence", "", private=True),  # (issue 48: presence)
    "kickoff.v1.ChatService": Service("chat", "", private=True),  # (issue 49: table talk; any node forwards)
}


def default_service(full_name: str) -> Service:
    """A service not in SERVICES: tagged with its name (``FriendService``: ``friends``), its stub made on first use."""
    name = full_name.rsplit(".", 1)[-1].removesuffix("Service")
    return Service(f"{name.lower()}s", "")


@dataclass(frozen=True)
class Rest:
    """One operation's declared words and choices (the defaults: see the module's docstring).

    ``created``: answers 201 (a resource made: a room, a seat, a move, a session...), else 200. ``caller``: the call
    carries the caller's metadata (their token, API key or operator key, and address; calls.metadata); by default
    where the operation has a security requirement. ``extra_seconds``: added to the call's deadline (a call that
    waits on something else: a webhook receiver, a node's drain). ``query``: False where a binding takes no query
    parameters although its message has fields left (GetMe: its player is the caller)."""

    summary: str = ""
    description: str | None = None
    example: dict[str, Any] | None = None
    security: list[SecurityRequirement] | None = None
    tag: str | None = None
    created: bool = False
    private: bool | None = None
    caller: bool | None = None
    extra_seconds: float = 0.0
    query: bool = True


def summary(operation_id: str) -> str:
    """The default summary: the RPC's name in words (``ListFriendRequests``: ``List friend requests``)."""
    return re.sub(r"(?<!^)([A-Z])", r" \1", operation_id).capitalize()


# An additional binding's operation id (the first binding's is the RPC's name).
BINDING_IDS = {"GET /v1/players/me": "GetMe", "POST /v1/tickets/{ticket_id}/party-join": "JoinTicketByLink"}
# A path's player_id "me" is the caller: the gRPC call takes the empty id for them.
ME = ("player_id", "me")
TICKET_EXAMPLE = {
    "ticketId": "9b2f0c1d4e5a6b7c",
    "game": "soker",
    "status": "TICKET_STATUS_SEARCHING",
    "seatCounts": [2, 4],
    "members": [{"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann", "accepted": False}],
    "version": "1",
}
MATCHED_EXAMPLE = {
    **TICKET_EXAMPLE,
    "status": "TICKET_STATUS_MATCHED",
    "members": [{"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann", "accepted": True}],
    "table": {"roomId": "3f2a9c1d4e5b6a70", "seats": 2, "seat": 0, "seatToken": "cm9vbToxOmFi..."},
    "version": "4",
}
PRESENCE_EXAMPLE = {  # (issue 48: presence)
    "playerId": "3f2a9c1d4e5b6a708192",
    "name": "Ann",
    "state": "PRESENCE_STATE_AT_TABLE",
    "roomId": "3f2a9c1d4e5b6a70",
    "sinceTime": "2026-12-06T10:00:00Z",
    "cursor": "1796551200000",
    "removed": False,
}

CHAT_MESSAGE_EXAMPLE = {  # (issue 49)
    "roomId": "3f2a9c1d4e5b6a70",
    "seq": "7",
    "channel": "CHAT_CHANNEL_PLAYERS",
    "text": "good luck",
    "playerId": "3f2a9c1d4e5b6a708192",
    "name": "Ann",
    "seat": 0,
    "createTime": "2026-12-06T08:00:00Z",
}
INBOX_ITEM_EXAMPLE = {
    "itemId": "412",
    "kind": "turn.began",
    "createTime": "2026-12-06T08:00:00Z",
    "read": False,
    "data": {
        "player_id": "3f2a9c1d4e5b6a708192",
        "room_id": "3f2a9c1d4e5b6a70",
        "game": "soker",
        "seat": 1,
        "deadline": "2026-12-07T08:00:00.000Z",
        "version": 9,
    },
}
ENDPOINT_EXAMPLE = {
    "endpointId": "we_3f2a9c1d4e5b6a70",
    "url": "https://push.example.com/kickoff",
    "events": ["WEBHOOK_EVENT_TURN_BEGAN", "WEBHOOK_EVENT_GAME_ENDED"],
    "description": "the app's push service",
    "maxInFlight": 4,
    "timeoutSeconds": 10.0,
    "secretHint": "whsec_Mfkq...",
    "backlog": "0",
    "dead": "0",
}
INVITATION_EXAMPLE = {
    "roomId": "3f2a9c1d4e5b6a70",
    "game": "soker",
    "fromPlayerId": "3f2a9c1d4e5b6a708192",
    "fromName": "Ann",
    "playerId": "8d0e4b2a1c3f5a6b7c8d",
    "name": "Bo",
    "createTime": "2026-12-06T10:00:00Z",
}
ROOM_EXAMPLE = {
    "roomId": "3f2a9c1d4e5b6a70",
    "game": "soker",
    "status": "ROOM_STATUS_PLAYING",
    "mode": "ROOM_MODE_ONLINE",
    "seats": 4,
    "nodeId": "kickoff-0",
    "epoch": "3",
    "tournamentId": "",
    "createTime": "2026-12-01T10:00:00Z",
}

OPERATIONS: dict[str, Rest] = {
    "ListGames": Rest(
        summary="List the games hosted",
        example={"games": [{"name": "soker", "title": "Soker", "seatCounts": [2, 3, 4]}]},
    ),
    "GetRules": Rest(
        summary="A game's rules in force",
        example={"game": "soker", "deckSize": 58, "options": [{"name": "turn_seconds", "value": 30}]},
    ),
    "ListCards": Rest(
        summary="Every face of a game's cards, with what a front-end needs to draw it",
        example={
            "game": "soker",
            "cards": [
                {
                    "code": "JUV-FRW",
                    "name": "Juventus Forward",
                    "kind": "player",
                    "copies": 1,
                    "soker": {"country": "Italy", "countryColour": "green", "club": "JUV", "ringColour": "black"},
                }
            ],
        },
    ),
    "CreateRoom": Rest(
        summary="Create a room",
        description='Body: CreateRoomRequest, e.g. {"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 4, '
        '"systemPlayers": 3}; a correspondence room (online, every turn and answer lasting hours, 1-336) '
        'adds "correspondenceHours": 24; "standIns": true lets a system player play for a person the clock '
        'played for twice in a row, until the person moves again. "requestId" makes a retry safe: sent '
        "again with the same body, it answers the same room and makes none more (without a player's token, "
        "at least 16 characters: a UUID).",
        example={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 4, "systemPlayers": 3},
        security=CREATOR_OR_PLAYER,
        created=True,
    ),
    "ListRooms": Rest(
        summary="List rooms, newest first, a page at a time",
        example={"rooms": [], "nextPageToken": ""},
    ),
    "GetRoom": Rest(
        summary="One room",
        description="An unlisted room answers 404, as a room never made, but to its seated players (their seat or "
        "access token) and to the holders of one of its invitation links (`?invitation_token=`).",
        example={"roomId": "3f2a9c1d4e5b6a70", "game": "soker", "status": "ROOM_STATUS_WAITING"},
        caller=True,  # (a seated player's token opens an unlisted room)
    ),
    "JoinRoom": Rest(
        summary="Take a seat; returns its bearer token",
        description='Body: {"seat": 1, "name": "ann", "requestId": "7c9e6679-7425-40de-944b-e07fc1f90ae7"} (each '
        'optional). "requestId" makes a retry safe: sent again with the same body, it answers the same '
        "seat and token and takes none more (without a player's token, at least 16 characters: a UUID).",
        example={"name": "ann"},
        security=PLAYER_OR_ANYONE,
        tag="seats",
        created=True,
    ),
    "LeaveRoom": Rest(
        summary="Give the caller's seat back (while the room waits)",
        example={"room": {"roomId": "3f2a9c1d4e5b6a70"}},
        security=SEAT,
        tag="seats",
    ),
    "GetView": Rest(
        summary="What the caller's seat sees",
        example={"version": "5", "viewer": 0, "view": {"soker": {"hand": ["JUV-GKP"], "topCard": "INT-FRW"}}},
        security=SEAT_OR_SPECTATOR,
    ),
    "GetReplay": Rest(
        summary="A room's game again, a page of versions at a time",
        description="Until the game is over each step is what a spectator saw; once it is over every hand is shown "
        "(each step's `hands`, by seat, and the cards drawn in its events). Pass `nextAfterVersion` as "
        "`after_version` for the next page. Every page's steps in one answer make the replay file `kickoff "
        "replay FILE` reads. Whoever sat at the table (their seat token, or their player's access token) also gets "
        "the players' chat on the first page (`chat`); anyone else none.",
        example={"revealed": True, "lastVersion": "212", "nextAfterVersion": "50", "steps": [{"update": {}}]},
        caller=True,  # (a seated player's token opens an unlisted room, and brings the table's chat)
        private=True,  # (an answer with the table's chat is its players' only: no cache keeps it)
    ),
    # Private tables (docs/guides/private-tables.md): an unlisted room's invitation links, for its seated players.
    "CreateInvitationLink": Rest(
        summary="Make an invitation link to an unlisted room (its seated players)",
        description='Body: {"maxUses": 1, "expiresInSeconds": 3600} (each optional: 0 uses is the server\'s most, '
        "0 seconds a day). The answer's `token` is shown once; `url` is the page's form of it.",
        example={
            "link": {"linkId": "5d1c9a7e2b3f4a60", "roomId": "3f2a9c1d4e5b6a70", "maxUses": 1, "uses": 0},
            "token": "eyJhbGciOiJIUzI1NiIs...",
            "url": "/play#join=eyJhbGciOiJIUzI1NiIs...",
        },
        security=SEAT_OR_PLAYER,
        tag="private tables",
        created=True,
        private=True,
    ),
    "ListInvitationLinks": Rest(
        summary="An unlisted room's invitation links, newest first (its seated players)",
        example={"links": [{"linkId": "5d1c9a7e2b3f4a60", "maxUses": 1, "uses": 1, "revoked": False}]},
        security=SEAT_OR_PLAYER,
        tag="private tables",
        private=True,
    ),
    "RevokeInvitationLink": Rest(
        summary="Revoke an invitation link (its room's seated players)",
        example={"linkId": "5d1c9a7e2b3f4a60", "revoked": True},
        security=SEAT_OR_PLAYER,
        tag="private tables",
        private=True,
    ),
    # -- invitations to a friend (issue 48, part 2) --
    "InviteToRoom": Rest(
        summary="Invite a friend to a room waiting for players (a player seated there)",
        description='Body: {"playerId": "<the friend\'s id>"}. 409 `not_friends`, `you_blocked`, `room_started`, '
        "`already_invited`, `already_seated`; 403 `not_seated`; 429 `room_invitations_full`, `their_invitations_full`; "
        "404 `player_not_found`.",
        example=INVITATION_EXAMPLE,
        security=PLAYER,
        tag="private tables",
        created=True,
        private=True,
    ),
    "ListRoomInvitations": Rest(
        summary="The caller's pending room invitations, received and sent",
        example={"received": [INVITATION_EXAMPLE], "sent": []},
        security=PLAYER,
        tag="private tables",
        private=True,
    ),
    "AcceptRoomInvitation": Rest(
        summary="Accept the caller's invitation to a room: they are seated, as JoinRoom seats them",
        description="404 `invitation_not_found`; 409 `invitation_withdrawn`, `room_started`; 503 `room_full`.",
        example={"room": ROOM_EXAMPLE, "seat": 1, "seatToken": "eyJhbGciOiJIUzI1NiIs..."},
        security=PLAYER,
        tag="private tables",
        created=True,
        private=True,
    ),
    "DeclineRoomInvitation": Rest(
        summary="Decline the caller's invitation to a room",
        description="404 `invitation_not_found`; 409 `invitation_withdrawn`.",
        example={},
        security=PLAYER,
        tag="private tables",
        private=True,
    ),
    "WithdrawRoomInvitation": Rest(
        summary="Withdraw an invitation the caller sent to a room",
        description="404 `invitation_not_found`.",
        example={},
        security=PLAYER,
        tag="private tables",
        private=True,
    ),
    # Rematches (docs/guides/rematches.md): a finished room's people propose and answer one.
    "ProposeRematch": Rest(
        summary="Propose a rematch of a finished room (a person seated there)",
        description='Body: {} , or {"seed": "..."}: the proposer\'s seat\'s seed for the new room\'s fair deal. '
        "The proposer has accepted; every other person is asked until the answer's "
        "`rematch.deadline`. Proposing again while it is open answers the same proposal.",
        example={"roomId": "3f2a9c1d4e5b6a70", "rematch": {"status": "REMATCH_STATUS_OPEN", "proposedBy": 0}},
        security=SEAT_OR_PLAYER,
        tag="rematches",
    ),
    "AnswerRematch": Rest(
        summary="Accept or decline a finished room's rematch (a person seated there)",
        description='Body: {"accept": true}. Once the rematch is made, an accepting person\'s answer carries '
        "their `seat` and `seatToken` in the new room (`room.rematch.roomId`).",
        example={"room": {"rematch": {"status": "REMATCH_STATUS_MADE", "roomId": "9b1e3c5d7f203a41"}}, "seat": 1},
        security=SEAT_OR_PLAYER,
        tag="rematches",
    ),
    "ListLegalMoves": Rest(
        summary="The caller's legal moves",
        example={"version": "5", "moves": [{"soker": {"draw": {}}}]},
        security=SEAT,
    ),
    "SubmitMove": Rest(
        summary="Submit a move for the caller's seat",
        description='Body: {"move": {"soker": {"play": {"cards": ["JUV-GKP"]}}}, "requestId": "1", '
        '"expectedVersion": "7"}.',
        example={"move": {"soker": {"play": {"cards": ["JUV-GKP"]}}}, "requestId": "1", "expectedVersion": "7"},
        security=SEAT,
        created=True,
    ),
    "CreateStreamTicket": Rest(
        summary="A short-lived ticket that opens this room's event stream as the caller's seat",
        description="For a browser's EventSource, which cannot send the seat token as a header: "
        "`new EventSource('/v1/rooms/ROOM/events?ticket=' + ticket)`. A ticket opens this room's streams only, never "
        "moves, for a minute; a stream it opened goes on after that. Ask for a new one to reconnect later.",
        example={"ticket": "cm9vbToxOmFi...Q.mX0c...", "expireTime": "2026-12-01T12:01:00Z"},
        security=SEAT,
        created=True,
    ),
    "CreateTournament": Rest(
        summary="Create a Soker tournament of four seats",
        description='Body: CreateTournamentRequest, e.g. {"game": "soker", "mode": "ROOM_MODE_ONLINE", '
        '"systemPlayers": 2}. People then join it; with every seat taken the first of its eight games starts. '
        '"requestId" makes a retry safe: sent again with the same body, it answers the same tournament and makes none '
        "more (without a player's token, at least 16 characters: a UUID).",
        example={"game": "soker", "mode": "ROOM_MODE_SOLO", "systemPlayers": 3},
        security=CREATOR,
        created=True,
    ),
    "ListTournaments": Rest(
        summary="List tournaments, newest first, a page at a time",
        example={"tournaments": [], "nextPageToken": ""},
    ),
    "GetTournament": Rest(
        summary="One tournament: its seats, games and standings",
        example={"tournamentId": "8c1f0e2d3b4a5968", "game": "soker", "games": 8, "gamesPlayed": 3},
    ),
    "JoinTournament": Rest(
        summary="Take a tournament seat; its bearer token plays every game of the tournament",
        description='Body: {"seat": 0, "name": "ann", "requestId": "7c9e6679-7425-40de-944b-e07fc1f90ae7"} (each '
        'optional). "requestId" makes a retry safe: sent again with the same body, it answers the same '
        "seat and token and takes none more (without a player's token, at least 16 characters: a UUID).",
        example={"name": "ann"},
        security=PLAYER_OR_ANYONE,
        created=True,
    ),
    "LeaveTournament": Rest(
        summary="Give the caller's tournament seat back (while the tournament waits)",
        example={"tournament": {"tournamentId": "8c1f0e2d3b4a5968"}},
        security=SEAT,
    ),
    "GetStandings": Rest(
        summary="The standings: points, then games won, then country wins; equal on all three share the place",
        example={"lines": [{"place": 1, "seat": 2, "points": 41, "gamesWon": 2, "name": "ann"}], "final": False},
    ),
    "SignInAsGuest": Rest(
        summary="Sign in as a guest; returns a session",
        description='Body: {"deviceId": "...", "name": "Ann"} (both optional; the same device id signs the same player '
        "in again).",
        example={"name": "Ann"},
        private=True,
        created=True,
        caller=True,
    ),
    "SignInWithToken": Rest(
        summary="Sign in with an identity provider's ID token; returns a session",
        example={"idToken": "eyJ..."},
        private=True,
        created=True,
        caller=True,
    ),
    "RefreshSession": Rest(
        summary="Trade a refresh token for new tokens (the one sent is used up)",
        example={"refreshToken": "kr1_..."},
        private=True,
        caller=True,
    ),
    "SignOut": Rest(
        summary="End the session (the access token's, or the refresh token's in the body)",
        example={},
        security=PLAYER_OR_ANYONE,
    ),
    "LinkIdentity": Rest(
        summary="Link an identity provider's account to the caller",
        example={"idToken": "eyJ..."},
        security=PLAYER,
        private=True,
        created=True,
    ),
    "GetPlayer": Rest(
        summary="A player: their name and ratings",
        example={"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann"},
        security=PLAYER_OR_ANYONE,
        private=True,
    ),
    "GetMe": Rest(
        summary="The caller, with their identities",
        example={"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann"},
        security=PLAYER,
        private=True,
        query=False,
    ),
    "UpdatePlayer": Rest(
        summary="Rename the caller",
        example={"name": "Ann"},
        security=PLAYER,
        private=True,
    ),
    "DeletePlayer": Rest(
        summary="Delete the caller (refused while they hold a seat in a game not finished)",
        example={},
        security=PLAYER,
    ),
    "ListMyRooms": Rest(
        summary="The caller's rooms: their turn first, then live, waiting, finished",
        example={"rooms": [], "nextPageToken": ""},
        security=PLAYER,
        private=True,
    ),
    "ListMyTurns": Rest(
        summary="The rooms waiting for the caller (their turn), the nearest deadline first",
        description="Read from the store: it wakes no correspondence room that rests. Rooms without a clock come last; "
        "at most page_size rooms (default 50, at most 500).",
        example={
            "turns": [
                {
                    "roomId": "9cde6c191823ba5c",
                    "game": "soker",
                    "seat": 0,
                    "deadline": "2027-01-15T08:00:00Z",
                    "correspondenceHours": 24,
                }
            ]
        },
        security=PLAYER,
        private=True,
    ),
    "TakeSeat": Rest(
        summary="A fresh seat token for the seat the caller holds (another device takes the game up)",
        example={"seat": 0, "seatToken": "..."},
        security=PLAYER,
        private=True,
    ),
    "GetLeaderboard": Rest(
        summary="A game's leaderboard, best first, a page at a time",
        example={"lines": [], "minGames": 5},
    ),
    "GetRank": Rest(
        summary="A player's place on a game's leaderboard, with neighbours (me: the caller)",
        example={
            "line": {"rank": "7"},
            "above": [],
            "below": [],
            "ranked": "120",
            "minGames": 5,
            "ratedGames": 12,
            "gamesToPlay": 0,
        },
        security=PLAYER_OR_ANYONE,
    ),
    "ListRatingChanges": Rest(
        summary="A player's rating changes in a game, newest first (me: the caller)",
        example={"changes": [], "nextPageToken": ""},
        security=PLAYER_OR_ANYONE,
    ),
    "ListPlayerGames": Rest(
        summary="A player's finished games with their outcome, newest first (me: the caller)",
        example={"games": [], "played": 0, "won": 0},
        security=PLAYER_OR_ANYONE,
    ),
    "Enqueue": Rest(
        summary="Join a game's queue; returns the ticket, searching",
        description='Body: EnqueueRequest, e.g. {"game": "soker", "seatCounts": [2, 4], "party": ["<player id>"]} '
        "(seatCounts empty: every size the game takes; party: other players, invited to the ticket, who sit at the "
        "caller's table once each joined it: POST /v1/tickets/{ticket_id}/join). 409 "
        "`already_queued` for a player in that queue already; 429 for a quota (`tickets_per_player`, "
        "`tickets_per_caller`, `queue_full`), with Retry-After. With `requestId`, the same body sent again answers the "
        "ticket the first one made, as it stands (not `already_queued`); the same id with another body is 409 "
        "`request_id_reused`.",
        example={"game": "soker", "seatCounts": [2, 4], "party": []},
        security=PLAYER,
        created=True,
    ),
    "ListMyTickets": Rest(
        summary="The caller's live tickets, and those they are invited to, oldest first",
        example={"tickets": [TICKET_EXAMPLE]},
        security=PLAYER,
    ),
    "GetTicket": Rest(
        summary="A ticket of the caller's, as it stands",
        example={"ticket": TICKET_EXAMPLE},
        security=PLAYER,
    ),
    "JoinTicket": Rest(
        summary="Join a party's ticket the caller is invited to; the last to join puts it in the queue",
        description="409 `already_queued` for a player in that game's queue already. A party link's holder joins "
        "with JoinTicketByLink.",
        example={"ticket": TICKET_EXAMPLE},
        security=PLAYER,
    ),
    "DeclineTicket": Rest(
        summary="Decline an invitation to a party's ticket: the caller leaves it, and the party goes on without them",
        description="409 `already_joined` for a member who joined (cancel the ticket instead), `ticket_ended` for a "
        "ticket that ended; 404 for a ticket the caller is not invited to.",
        example={},
        security=PLAYER,
    ),
    "JoinTicketByLink": Rest(
        summary="Join a party's ticket with its party link (anyone holding the token, unless blocked)",
        description='Body: {"partyToken": "<the link\'s token>"}. 409 `link_invalid`, `link_expired`, '
        "`link_revoked`, `link_used_up`, `ticket_ended`, `already_queued`; 400 `party_too_big`.",
        example={"ticket": TICKET_EXAMPLE},
        security=PLAYER,
    ),
    "CreatePartyLink": Rest(
        summary="Make a party link to the caller's ticket: anyone holding its token may join the party",
        description='Body: {"maxUses": 2, "expiresInSeconds": 3600} (each optional: 0 uses is 6, 0 seconds the '
        "longest). The answer's `token` is shown once. 409 `not_party_leader`, `ticket_ended`; 429 `too_many_links`.",
        example={
            "link": {"linkId": "5d1c9a7e2b3f4a60", "ticketId": "9b1f0c7e2a4d6e80", "maxUses": 2, "uses": 0},
            "token": "eyJhbGciOiJIUzI1NiIs...",
        },
        security=PLAYER,
        created=True,
    ),
    "RevokePartyLink": Rest(
        summary="Revoke a party link of the caller's ticket",
        description="404 `party_link_not_found`.",
        example={"link": {"linkId": "5d1c9a7e2b3f4a60", "revoked": True}},
        security=PLAYER,
    ),
    "AcceptMatch": Rest(
        summary="Take up the caller's seat at the table the ticket was proposed",
        description="Matched once every person at the table took up: the ticket then carries the room's id and the "
        "caller's seat token. 409 `not_proposed` for a ticket with no table to take up.",
        example={"ticket": MATCHED_EXAMPLE},
        security=PLAYER,
    ),
    "CancelTicket": Rest(
        summary="Cancel a live ticket (any member may); returns it, cancelled",
        description="It leaves the queue, or the table it was proposed (whose others keep their seats). 409 "
        "`ticket_ended` for a ticket ended already.",
        example={"ticket": {**TICKET_EXAMPLE, "status": "TICKET_STATUS_CANCELLED", "reason": "cancelled"}},
        security=PLAYER,
    ),
    "AddEndpoint": Rest(
        summary="Register a webhook endpoint; the reply holds its signing secret, shown only this once (and to a "
        "retry)",
        description="422 `address_refused` for a URL whose host is, or resolves to, an address the server refuses "
        "(loopback, link-local, private, metadata) unless KICKOFF_WEBHOOK_ALLOW allows it; `bad_url` for "
        "one that is not http(s). With `requestId`, the same body sent again answers the endpoint the "
        "first one registered, with its secret (the first reply was lost); the same id with another body "
        "is 409 `request_id_reused`.",
        example={"url": "https://push.example.com/kickoff", "events": ["WEBHOOK_EVENT_TURN_BEGAN"]},
        security=OPERATOR,
        created=True,
    ),
    "ListEndpoints": Rest(
        summary="Every webhook endpoint, oldest first, with its backlog and dead letters",
        example={"endpoints": [ENDPOINT_EXAMPLE]},
        security=OPERATOR,
    ),
    "RemoveEndpoint": Rest(
        summary="Remove a webhook endpoint and what it had still to be sent",
        example={},
        security=OPERATOR,
    ),
    "TestEndpoint": Rest(
        summary="Send the endpoint a signed webhook.test event now, and say how the receiver answered",
        example={"delivered": True, "statusCode": 204, "error": "", "seconds": 0.012, "deliveryId": "msg_..."},
        security=OPERATOR,
        extra_seconds=30,
    ),
    "ListDeliveries": Rest(
        summary="Webhook deliveries, newest first: an endpoint's, and those in one status (dead: the dead letters)",
        description="`status`: pending, sending, delivered, dead or obsolete (or the enum's own name).",
        example={"deliveries": [], "nextPageToken": ""},
        security=OPERATOR,
    ),
    "RedeliverDeliveries": Rest(
        summary="Send an endpoint's dead letters again (those named, or all), each with its own webhook-id",
        example={"deliveryIds": []},
        security=OPERATOR,
    ),
    "ListNodes": Rest(
        summary="The cluster's nodes (a single server: itself), each with the leases it holds",
        example={"nodes": [{"nodeId": "kickoff-0", "alive": True, "leases": 12, "thisNode": True}], "cluster": True},
        security=OPERATOR,
    ),
    "ListLeases": Rest(
        summary="The leases of live rooms and tournaments, by kind and id: their node and epoch",
        example={"leases": [], "nextPageToken": ""},
        security=OPERATOR,
    ),
    "ListLiveRooms": Rest(
        summary="The rooms waiting or playing, newest first, with the node that owns each (filter by node and game)",
        example={"rooms": [ROOM_EXAMPLE], "nextPageToken": ""},
        security=OPERATOR,
    ),
    "GetPlayerSocial": Rest(
        summary="A player's blocks, pending friend requests and pending room invitations, for a report (read only)",
        description="Withheld requests and swallowed invitations are listed with `delivered: false`. 404 "
        "`player_not_found`; 409 `players_off`.",
        example={
            "playerId": "3f2a9c1d4e5b6a708192",
            "name": "Ann",
            "blocks": [{"playerId": "8d0e4b2a1c3f5a6b7c8d", "name": "Bo", "createTime": "2026-12-06T10:00:00Z"}],
            "blockedBy": [],
            "friendRequestsReceived": [],
            "friendRequestsSent": [],
            "roomInvitationsReceived": [],
            "roomInvitationsSent": [{"invitation": INVITATION_EXAMPLE, "delivered": True}],
        },
        security=OPERATOR,
    ),
    "GetRoomTimeline": Rest(
        summary="A room's log as its updates, each as a spectator saw it (no hand, no hidden card), a page at a time",
        description="Pass `nextAfterVersion` as `after_version` for the next page (0: the last page).",
        example={"room": {}, "updates": [{"version": "1", "events": []}], "lastVersion": "1", "nextAfterVersion": "0"},
        security=OPERATOR,
    ),
    "CloseRoom": Rest(
        summary="End a waiting or playing room now: its outcome's reason is `closed_by_operator: <reason>`",
        description='Body: {"reason": "..."} (required, at most 64 characters). Nobody wins and the game is not rated; '
        "the seats' event streams get the end. 409 `room_finished` for a room already over, `tournament_room` for a "
        "tournament's game.",
        example={"reason": "maintenance"},
        security=OPERATOR,
    ),
    "RevokeSeatToken": Rest(
        summary="Revoke a seat's token: it opens nothing any more, and the streams opened with it end (seat_released)",
        description="A waiting room's seat is given back; a playing room's stays its holder's, for a signed-in player "
        "to take up again with a fresh token (`POST /v1/rooms/{room_id}/my-seat`). 409 `seat_not_held` for a seat "
        "nobody holds.",
        example={},
        security=OPERATOR,
    ),
    # -- table talk (issue 49) --
    "SendChatMessage": Rest(
        summary="Send a message (text or a quick reaction) to one of the room's chat channels",
        description="Text as a signed-in player (`playerAuth`), seated or watching; a quick reaction also with a "
        "seat token. Answered once stored, with the message's `seq`. Refusals: 409 `chat_off`, `reactions_only`; 403 "
        "`not_your_channel`, `sign_in_to_chat`; 400 `message_too_long`, `bad_message`; 429 `chat_rate`, "
        "`room_chat_rate`.",
        example={"text": "good luck", "requestId": "c1b7e9a0-0d1f-4a51-9b0e-5d3f7a2c8e41"},
        security=SEAT_OR_PLAYER,
        created=True,
    ),
    "ListChatMessages": Rest(
        summary="The room's chat messages after a seq, oldest first, in the channels the caller may read",
        description="A seated person reads the players' channel (and their team's); anyone else the spectators'. "
        "`page_size` at most 200; pass `nextAfterSeq` as `after_seq` for the next page.",
        example={"messages": [CHAT_MESSAGE_EXAMPLE], "nextAfterSeq": "0"},
        security=[{}, {"bearerAuth": []}, {"playerAuth": []}],
    ),
    "ReportChatMessage": Rest(
        summary="Report a chat message to the service's moderators",
        description="As a signed-in player who may read the message. 409 `reports_off` on a server that takes none, "
        "`report_exists` for a second report of it by the same player; 429 `report_rate` past 30 reports an hour.",
        example={"reason": "insults at the table"},
        security=PLAYER,
        created=True,
    ),
    # -- the chat's moderation (issue 49) --
    "ListChatReports": Rest(
        summary="Players' reports of chat messages, the open ones first, each part newest first",
        description="Each report without its context (GetChatReport has it). 409 `players_off` on a server without "
        "players.",
        example={"reports": [CHAT_REPORT_EXAMPLE], "nextPageToken": ""},
        security=OPERATOR,
    ),
    "GetChatReport": Rest(
        summary="A chat report: the message and the ten around it as they were when it was filed",
        description="`deleted` marks the messages an operator deleted since. 404 `report_not_found`.",
        example={"report": {**CHAT_REPORT_EXAMPLE, "context": []}},
        security=OPERATOR,
    ),
    "CloseChatReport": Rest(
        summary="Close a chat report, with a note for the record",
        description='Body: {"note": "..."} (at most 200 characters). 404 `report_not_found`; 409 `report_closed`.',
        example={"note": "muted for a day"},
        security=OPERATOR,
    ),
    "DeleteChatMessage": Rest(
        summary="Delete a message of a room's chat: everyone reading it sees it withdrawn",
        description="Recorded once with the operator key's id (`deleted: false` when it was deleted before). 404 "
        "`room_not_found`.",
        example={"deleted": True},
        security=OPERATOR,
    ),
    "MutePlayer": Rest(
        summary="Mute a player for a time (or until ended): their chat messages are refused with `muted`",
        description='Body: {"seconds": 3600, "reason": "..."} or {"untilEnded": true}; a mute in force is replaced. '
        "400 `bad_seconds`; 404 `player_not_found`.",
        example={"seconds": "3600", "reason": "insults in room 7Qx"},
        security=OPERATOR,
    ),
    "EndMute": Rest(
        summary="End a player's mute now",
        description="409 `not_muted` when none is in force.",
        example={"mute": {"playerId": "8d0e4b2a1c3f5a6b7c8d", "active": False, "endedBy": "3f2a9c1d4e5b"}},
        security=OPERATOR,
    ),
    "ListMutes": Rest(
        summary="The mutes in force (include_ended: every mute), newest first",
        example={"mutes": [], "nextPageToken": ""},
        security=OPERATOR,
    ),
    # -- the inbox (issue 48) --
    "ListInbox": Rest(
        summary="The caller's inbox items, newest first, a page at a time, with the unread count",
        description="`page_size` at most 100 (KICKOFF_INBOX_PAGE_SIZE; 400 `bad_page_size` past it); "
        "`unread_only=true` for the unread ones; pass `nextPageToken` as `page_token` for the next page.",
        example={"items": [INBOX_ITEM_EXAMPLE], "nextPageToken": "", "unreadCount": 1},
        security=PLAYER,
    ),
    "MarkInboxRead": Rest(
        summary="Mark inbox items read (those named, or every one up to an id); answers the unread count",
        description='Body: {"itemIds": ["412"]} (at most 100) or {"upToItemId": "412"}. Idempotent: an item read '
        "already, gone, or not the caller's is left as it is. 400 `nothing_to_mark` for neither.",
        example={"upToItemId": "412"},
        security=PLAYER,
    ),
    "DeleteInboxItem": Rest(
        summary="Delete one of the caller's inbox items; answers the unread count",
        description="Idempotent: an item gone already (or not the caller's) answers the same.",
        example={"unreadCount": 0},
        security=PLAYER,
    ),
    "DrainNode": Rest(
        summary="Drain a node as SIGTERM does (its rooms handed over, its leases given back), leaving its process up",
        description="409 `not_a_cluster` on a single server, `node_not_alive` for a node gone; 404 `node_not_found`.",
        example={"nodeId": "kickoff-1", "rooms": 40, "tournaments": 1, "leases": 41},
        security=OPERATOR,
        extra_seconds=30,
    ),
    # -- friends (issue 48) -------------------------------------------------------------------------------------------
    "GetFriendCode": Rest(
        summary="The caller's friend code (made on the first ask), to share with people they know",
        example={"friendCode": "7KX2M-9QHRT", "createTime": "2026-12-06T10:00:00Z"},
        security=PLAYER,
    ),
    "RotateFriendCode": Rest(
        summary="A new friend code for the caller: the old one finds nobody any more",
        example={"friendCode": "Q4D8W-ZK2NP", "createTime": "2026-12-06T10:05:00Z"},
        security=PLAYER,
    ),
    "SendFriendRequest": Rest(
        summary="Ask a player to be friends, by friend code (or by player id where the two shared a table)",
        description='Body: {"friendCode": "7KX2M-9QHRT"} or {"playerId": "<id>"}. The answer holds the request, '
        "pending, or the new friend when that player had asked the caller already. 404 `friend_code_not_found`, "
        "`player_not_found`; 400 `not_yourself`, `missing_friend`, `ambiguous_friend`; 409 `already_friends`, "
        "`request_pending`, `you_blocked`, `no_shared_table`; 429 `code_lookups_rate_limited`, `requests_per_day`, "
        "`pending_requests`, `their_pending_requests`, `friends_full`, `their_friends_full`.",
        example={"friendCode": "7KX2M-9QHRT"},
        security=PLAYER,
        created=True,
    ),
    "AcceptFriendRequest": Rest(
        summary="Accept the request a player sent the caller: the two are friends",
        description="404 `request_not_found`; 429 `friends_full`, `their_friends_full`.",
        example={"friend": {"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann", "sinceTime": "2026-12-06T10:00:00Z"}},
        security=PLAYER,
    ),
    "DeclineFriendRequest": Rest(
        summary="Decline the request a player sent the caller",
        description="404 `request_not_found`.",
        example={},
        security=PLAYER,
    ),
    "CancelFriendRequest": Rest(
        summary="Withdraw the request the caller sent a player",
        description="404 `request_not_found`.",
        example={},
        security=PLAYER,
    ),
    "RemoveFriend": Rest(
        summary="End a friendship, for both players", description="404 `not_friends`.", example={}, security=PLAYER
    ),
    "ListFriends": Rest(
        summary="The caller's friends (paged), and their pending requests, received and sent",
        example={
            "friends": [{"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann", "sinceTime": "2026-12-06T10:00:00Z"}],
            "received": [],
            "sent": [{"playerId": "8d0e4b2a1c3f5a6b7c8d", "name": "Bo", "createTime": "2026-12-06T10:02:00Z"}],
        },
        security=PLAYER,
    ),
    "BlockPlayer": Rest(
        summary="Block a player: their friendship and requests end, and they are kept from the caller's tables",
        description='Body: {"playerId": "<id>"}. The blocked player is told nothing: their later requests stay '
        "pending on their side and are never delivered. 404 `player_not_found`; 400 `not_yourself`; 429 "
        "`blocks_full`.",
        example={"playerId": "8d0e4b2a1c3f5a6b7c8d"},
        security=PLAYER,
        created=True,
    ),
    "UnblockPlayer": Rest(summary="Lift a block", description="404 `not_blocked`.", example={}, security=PLAYER),
    "ListBlocks": Rest(
        summary="The players the caller blocked, the latest first (paged)",
        example={"blocks": [{"playerId": "8d0e4b2a1c3f5a6b7c8d", "name": "Bo", "createTime": "2026-12-06T10:03:00Z"}]},
        security=PLAYER,
    ),
    # -- presence (issue 48) ------------------------------------------------------------------------------------------
    "GetPresence": Rest(
        summary="The caller's friends' presence (paged): online, at a table, searching or away, and since when",
        description="`page_size` at most 200 (KICKOFF_PRESENCE_PAGE_SIZE; 400 `bad_page_size` past it). A friend "
        "who shows their presence to nobody reads as away with no time; a friend at an unlisted table the caller "
        "may not enter reads as at a table with no room id.",
        example={"friends": [PRESENCE_EXAMPLE], "nextPageToken": "", "visibility": "PRESENCE_VISIBILITY_FRIENDS"},
        security=PLAYER,
    ),
    "SetPresenceVisibility": Rest(
        summary="Choose who sees the caller's presence: their friends (the default) or nobody",
        description='Body: {"visibility": "PRESENCE_VISIBILITY_NOBODY"}. Idempotent. 400 `bad_visibility` for '
        "anything else.",
        example={"visibility": "PRESENCE_VISIBILITY_NOBODY"},
        security=PLAYER,
    ),
}
