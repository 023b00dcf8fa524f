"""One game of kickoff over REST, from signing in to the rating: a guest signs in, asks for a game (Play now: a
matchmaking ticket), takes the seat it is given, plays the game to its end against system players from the room's
event stream, then reads the replay and the rating.

    .venv/bin/python examples/rest/play.py                        # the gateway `make run` serves, on port 8080
    .venv/bin/python examples/rest/play.py http://127.0.0.1:8080 --game age-of-soccer

The base URL comes from the first argument, else $KICKOFF_URL, else http://127.0.0.1:8080. Only httpx is needed.
System players take the seats nobody took once the ticket waited KICKOFF_MATCH_FILL_SECONDS (30 by default), so
alone on a server the script waits that long for its table.
"""

import argparse
import json
import os
import random
import sys
import uuid

import httpx

# --8<-- [start:helpers]
parser = argparse.ArgumentParser(description="Play one game over kickoff's REST gateway, against system players.")
parser.add_argument("url", nargs="?", default=os.environ.get("KICKOFF_URL", "http://127.0.0.1:8080"))
parser.add_argument("--game", default="soker", help="soker, age-of-soccer or carta-futbol-club")
parser.add_argument("--name", default="REST example", help="the name shown at the table")
parser.add_argument("--seed", type=int, default=1, help="seeds the choice among the legal moves")
args = parser.parse_args()
# A stream waits quietly for a while (the matchmaker, the other seats): the gateway sends a comment every 15 s.
client = httpx.Client(base_url=args.url, timeout=httpx.Timeout(10, read=60))


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def call(method, path, token=None, **options):
    """One request; a refusal (RFC 9457 problem details) stops the script with its reason."""
    answer = client.request(method, path, headers=bearer(token) if token else {}, **options)
    if answer.is_error:
        sys.exit(f"{method} {path}: {answer.status_code} {answer.text}")
    return answer.json()


def events(path, token=None, **options):
    """Each server-sent event of a stream as (name, data), until the server ends the stream."""
    with client.stream("GET", path, headers=bearer(token) if token else {}, **options) as answer:
        if answer.is_error:
            sys.exit(f"GET {path}: {answer.status_code} {answer.read().decode()}")
        name, data = "message", ""
        for line in answer.iter_lines():
            if line.startswith("event:"):
                name = line.removeprefix("event:").strip()
            elif line.startswith("data:"):
                data += line.removeprefix("data:").strip()
            elif line == "" and data:  # a blank line ends an event; a line starting ":" is a heartbeat
                yield name, json.loads(data)
                name, data = "message", ""


# --8<-- [end:helpers]
# --8<-- [start:sign-in]
# 1. Sign in as a guest: a new player, and a session whose access token acts for them.
session = call("POST", "/v1/players/guest", json={"name": args.name})["session"]
access = session["accessToken"]
me = session["player"]
print(f"signed in as {me['name']} (player {me['playerId']})")
# --8<-- [end:sign-in]

# --8<-- [start:play-now]
# 2. Play now: a ticket in the game's queue. The request id makes a retry after a lost answer safe.
ticket = call("POST", "/v1/tickets", access, json={"game": args.game, "requestId": str(uuid.uuid4())})["ticket"]
print(f"ticket {ticket['ticketId']} queued for {args.game}")

# 3. Follow the ticket until it ends; take up the seat of the table the matchmaker proposes.
for name, data in events(f"/v1/tickets/{ticket['ticketId']}/events", access):
    if name != "update":
        continue  # the last event, `end`, says the ticket ended
    ticket = data
    print(f"ticket {ticket['status'].removeprefix('TICKET_STATUS_').lower()}")
    if ticket["status"] == "TICKET_STATUS_PROPOSED":
        call("POST", f"/v1/tickets/{ticket['ticketId']}/accept", access)
if ticket["status"] != "TICKET_STATUS_MATCHED":
    sys.exit(f"no game: the ticket ended {ticket['status']} ({ticket['reason']})")
room_id = ticket["table"]["roomId"]
# --8<-- [end:play-now]

# --8<-- [start:take-seat]
# 4. Take the seat: the player's access token asks for their seat's token (the matched ticket carries the same one;
# this call gives it to any device of the player's, at any time).
seat = call("POST", f"/v1/rooms/{room_id}/my-seat", access)
seat_token = seat["seatToken"]
print(f"room {room_id}: seat {seat['seat']} of {len(seat['room']['seats'])}")
# --8<-- [end:take-seat]

# --8<-- [start:play]
# 5. Play: the event stream (opened with a stream ticket) sends every update of the room as this seat sees it; an
# update that asks the seat to act lists its legal moves, and the script sends one of them, chosen at random.
stream_ticket = call("POST", f"/v1/rooms/{room_id}/stream-tickets", seat_token)["ticket"]
choose, moves = random.Random(args.seed), 0
for name, data in events(f"/v1/rooms/{room_id}/events", params={"ticket": stream_ticket}):
    if name == "update" and data["legalMoves"]:
        move = choose.choice(data["legalMoves"])
        body = {"move": move, "requestId": f"move-{data['version']}", "expectedVersion": data["version"]}
        call("POST", f"/v1/rooms/{room_id}/moves", seat_token, json=body)
        moves += 1
        print(f"version {data['version']}: played {json.dumps(move)}")
    elif name == "update" and data["status"] == "ROOM_STATUS_FINISHED":
        print(f"version {data['version']}: the game is over")
    elif name == "problem":
        sys.exit(f"the stream stopped: {data['title']}")
print(f"moves played by this script: {moves}")
# --8<-- [end:play]

# --8<-- [start:replay]
# 6. The replay: every version of the room, a page at a time, every hand shown now that the game is over.
steps, after = [], 0
while True:
    page = call("GET", f"/v1/rooms/{room_id}/replay", params={"after_version": after, "page_size": 500})
    steps += page["steps"]
    after = int(page["nextAfterVersion"])
    if after == 0:
        break
outcome = page["room"]["outcome"]
result = outcome["results"][seat["seat"]].removeprefix("SEAT_RESULT_").lower()
print(f"replay: {len(steps)} steps; the game ended by {outcome['reason']}; seat {seat['seat']} {result}")
# --8<-- [end:replay]

# --8<-- [start:rating]
# 7. The rating: the player's rating in the game, and their place on its leaderboard.
rank = call("GET", f"/v1/games/{args.game}/leaderboard/me", access)
player = call("GET", "/v1/players/me", access)
rating = next((r for r in player["ratings"] if r["game"] == args.game), None)
if rating is None:
    print(f"not rated: {page['room']['unratedReason']}")
else:
    print(f"rating {rating['display']:.2f} (mu {rating['mu']:.2f}, sigma {rating['sigma']:.2f})")
if "line" in rank:
    print(f"rank {rank['line']['rank']} of {rank['ranked']}")
else:
    print(f"rated games: {rank['ratedGames']}; {rank['gamesToPlay']} more to appear on the leaderboard")
# --8<-- [end:rating]
