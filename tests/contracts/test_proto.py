"""The contracts: every RPC, message, enum value and field carries a comment, and the stubs import."""

from __future__ import annotations

import re
from pathlib import Path

PROTO = Path(__file__).resolve().parents[2] / "proto" / "kickoff" / "v1"
DECLARATION = re.compile(
    r"^\s*(rpc\s+\w+|message\s+\w+|enum\s+\w+|service\s+\w+|oneof\s+\w+|"
    r"(optional\s+|repeated\s+)?[\w.]+(<[\w.,\s]+>)?\s+\w+\s*=\s*\d+\s*;|\w+\s*=\s*\d+\s*;)"
)


def test_every_declaration_has_a_comment_above_it() -> None:
    missing = []
    files = sorted(PROTO.glob("*.proto"))
    assert {p.name for p in files} >= {"game.proto", "room.proto", "move.proto", "tournament.proto", "common.proto"}
    for path in files:
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            if DECLARATION.match(line) and not line.strip().startswith("//"):
                above = lines[number - 1].strip() if number else ""
                if not above.startswith("//"):
                    missing.append(f"{path.name}:{number + 1}: {line.strip()}")
    assert not missing, "declarations without a comment:\n" + "\n".join(missing)


def test_the_stubs_import_and_carry_the_services() -> None:
    from kickoff.v1 import game_pb2_grpc, move_pb2, move_pb2_grpc, room_pb2_grpc, tournament_pb2_grpc

    assert hasattr(game_pb2_grpc, "GameServiceStub") and hasattr(room_pb2_grpc, "RoomServiceStub")
    assert hasattr(move_pb2_grpc, "MoveServiceStub") and hasattr(tournament_pb2_grpc, "TournamentServiceStub")
    move = move_pb2.Move(soker={"play": {"cards": ["JUV-GKP", "JUV-DEF"]}})
    assert move_pb2.Move.FromString(move.SerializeToString()) == move
    assert move.WhichOneof("game") == "soker"
