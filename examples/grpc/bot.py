"""A bot of your own over gRPC: it signs in as a guest, asks for a game, takes up the seat the matchmaker finds it,
plays every decision from the updates of its Play stream, and stops when the game is over.

    .venv/bin/python examples/grpc/bot.py                   # the gRPC server `make run` serves, on port 50051
    .venv/bin/python examples/grpc/bot.py 127.0.0.1:50051 age-of-soccer

It needs grpcio and the generated stubs in clients/ (installed as the `kickoff` package, with protobuf), nothing else.
"""

import queue
import random
import sys
import uuid

import grpc
from google.protobuf import text_format

from kickoff.v1 import common_pb2, match_pb2, match_pb2_grpc, move_pb2, move_pb2_grpc, player_pb2, player_pb2_grpc

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"
game = sys.argv[2] if len(sys.argv) > 2 else "soker"


def choose(legal_moves):
    return random.choice(legal_moves)  # the bot's strategy: put your own here


with grpc.insecure_channel(target) as channel:
    players, matches = player_pb2_grpc.PlayerServiceStub(channel), match_pb2_grpc.MatchServiceStub(channel)
    session = players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name="gRPC bot")).session
    player = (("authorization", f"Bearer {session.access_token}"),)
    enqueue = match_pb2.EnqueueRequest(game=game, request_id=str(uuid.uuid4()))
    ticket = matches.Enqueue(enqueue, metadata=player).ticket
    print(f"{session.player.name} queued for {game}: ticket {ticket.ticket_id}")
    for followed in matches.FollowTicket(match_pb2.FollowTicketRequest(ticket_id=ticket.ticket_id), metadata=player):
        ticket = followed.ticket  # the stream ends when the ticket does: matched, cancelled or expired
        if ticket.status == match_pb2.TICKET_STATUS_PROPOSED:
            matches.AcceptMatch(match_pb2.AcceptMatchRequest(ticket_id=ticket.ticket_id), metadata=player)
    if ticket.status != match_pb2.TICKET_STATUS_MATCHED:
        sys.exit(f"no game: the ticket ended {match_pb2.TicketStatus.Name(ticket.status)} ({ticket.reason})")
    room_id, my_seat = ticket.table.room_id, ticket.table.seat
    seat = (("authorization", f"Bearer {ticket.table.seat_token}"),)  # the seat's token, from the matched ticket
    print(f"room {room_id}: seat {my_seat} of {ticket.table.seats}")

    outbox = queue.Queue()  # what the bot sends on its Play stream: hello first, then its moves
    outbox.put(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id)))
    for answer in move_pb2_grpc.MoveServiceStub(channel).Play(iter(outbox.get, None), metadata=seat):
        if answer.HasField("result") and not answer.result.accepted:  # (the turn moved on: the next update says)
            print(f"move refused: {answer.result.error.message}")
        update = answer.update
        if update.legal_moves:
            move = choose(update.legal_moves)
            request = move_pb2.SubmitMoveRequest(move=move, request_id=f"move-{update.version}")
            outbox.put(move_pb2.PlayRequest(move=request))
            print(f"version {update.version}: played {text_format.MessageToString(move, as_one_line=True)}")
        for event in update.events:
            if event.HasField("game_ended"):
                outcome = event.game_ended.outcome
                result = common_pb2.SeatResult.Name(outcome.results[my_seat])
                print(f"version {update.version}: the game is over ({outcome.reason}); seat {my_seat} {result}")
                outbox.put(None)  # the bot stops sending, and the server ends the stream
