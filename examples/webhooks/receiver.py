"""A webhook receiver that plays for one player: it checks every delivery's signature, and answers each turn.began for
its player by taking that turn over REST; when a game of the player's ends it prints the result.

    WEBHOOK_SECRET=whsec_... ACCESS_TOKEN=... python receiver.py

It listens on 127.0.0.1:$PORT (default 8000) and calls the gateway at $KICKOFF_URL (default http://127.0.0.1:8080)
as the player whose access token it was given. With EXIT_AFTER_ROOM=<room id> it stops once that room's game ends.
"""

import json
import os
import random
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

from standardwebhooks import Webhook, WebhookVerificationError

KICKOFF_URL = os.environ.get("KICKOFF_URL", "http://127.0.0.1:8080")
ACCESS_TOKEN = os.environ["ACCESS_TOKEN"]  # the player's, from a sign-in
webhook = Webhook(os.environ["WEBHOOK_SECRET"])  # the secret `kickoff webhooks add` printed
seen = set()  # webhook-ids already handled: a delivery may come more than once
seat_tokens = {}  # room id -> the player's seat token there
over = False


def call(method, path, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    request = urllib.request.Request(KICKOFF_URL + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


me = call("GET", "/v1/players/me", ACCESS_TOKEN)["playerId"]


def take_turn(room_id):
    """Play a legal move, and more while the turn goes on (in Soker a draw leaves it running); stop once the seat
    has no legal move, or another seat has moved since ours (the seat's next turn comes as a turn.began of its own)."""
    if room_id not in seat_tokens:  # moves are made with the seat's token, which the access token gets
        seat_tokens[room_id] = call("POST", f"/v1/rooms/{room_id}/my-seat", ACCESS_TOKEN)["seatToken"]
    token, version = seat_tokens[room_id], None
    while True:
        legal = call("GET", f"/v1/rooms/{room_id}/legal-moves", token)
        if not legal["moves"] or (version and legal["version"] != version):
            return
        move = random.choice(legal["moves"])
        body = {"move": move, "expectedVersion": legal["version"]}
        version = call("POST", f"/v1/rooms/{room_id}/moves", token, body)["version"]
        print(f"room {room_id}: played {json.dumps(move)}", flush=True)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        global over
        body = self.rfile.read(int(self.headers["content-length"]))
        try:
            event = webhook.verify(body, dict(self.headers))
        except WebhookVerificationError:
            self.send_response(400)
            self.end_headers()
            return
        data = event["data"]
        if self.headers["webhook-id"] not in seen:
            if event["type"] == "turn.began" and data["player_id"] == me:
                take_turn(data["room_id"])
            elif event["type"] == "game.ended":
                for seat in data["seats"]:
                    if seat["player_id"] == me:
                        print(f"room {data['room_id']} is over ({data['reason']}): {seat['result']}", flush=True)
                over = data["room_id"] == os.environ.get("EXIT_AFTER_ROOM")
            seen.add(self.headers["webhook-id"])
        self.send_response(204)
        self.end_headers()


server = HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Receiver)
print(f"listening on port {server.server_port}", flush=True)
while not over:
    server.handle_request()
