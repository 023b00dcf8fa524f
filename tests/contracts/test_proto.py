"""The contracts: every RPC, message, enum value and field carries a comment, and the stubs import."""

from __future__ import annotations

import re
from pathlib import Path

PROTO = Path(__file__).resolve().parents[2] / "proto" / "kickoff" / "v1"
DECLARATION = re.compile(
    r"^\s*(rpc\s+\w+|message\s+\w+|enum\s+\w+|service\s+\w+|oneof\s+\w+|"
    r"(optional\s+|repeated\s+)?[\w.]+(<[\w.,\s]+>)?\s+\w+\s*=\s*\d+\s*(\[.*\])?\s*;|\w+\s*=\s*\d+\s*;)"
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


def request_fields() -> list:
    """Every field a client sends: the fields of each method's request message and of the messages inside it."""
    import importlib

    from google.protobuf.descriptor import FieldDescriptor

    seen, fields, todo = set(), [], []
    for path in sorted(PROTO.glob("*.proto")):  # (every service of the contract, those added later too)
        module = importlib.import_module(f"kickoff.v1.{path.stem}_pb2")
        for service in module.DESCRIPTOR.services_by_name.values():
            todo.extend(method.input_type for method in service.methods)
    while todo:
        message = todo.pop()
        if message.full_name in seen or message.full_name.startswith("google.protobuf."):
            continue
        seen.add(message.full_name)
        for field in message.fields:
            fields.append(field)
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                todo.append(field.message_type)
    return fields


def test_every_string_repeated_and_struct_field_of_a_request_has_a_documented_bound() -> None:
    from google.protobuf.descriptor import FieldDescriptor

    from service.grpc.limits import field_limit

    unbounded, undocumented = [], []
    sources = {path.name: path.read_text() for path in PROTO.glob("*.proto")}
    for field in request_fields():
        struct = field.message_type is not None and field.message_type.full_name == "google.protobuf.Struct"
        text = field.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES)
        if not (text or struct or field.is_repeated):
            continue
        limit = field_limit(field)
        if limit is None or not (limit.max_length or limit.max_items):
            unbounded.append(field.full_name)
            continue
        source = sources[field.file.name.rsplit("/", 1)[-1]]
        block = source[source.index(f"message {field.containing_type.name} {{") :]
        lines = block[: block.index(f" {field.name} = ")].splitlines()
        comment = " ".join(line.strip()[2:].strip() for line in lines[-4:] if line.strip().startswith("//"))
        for bound in (limit.max_length, limit.max_items):
            if bound and f"at most {bound}" not in comment.lower():
                undocumented.append(f"{field.full_name}: {bound}")
    assert not unbounded, f"request fields with no (kickoff.v1.limit): {unbounded}"
    assert not undocumented, f"bounds the field's comment does not state: {undocumented}"


def test_the_openapi_document_carries_the_same_bounds() -> None:
    from service.gateway.app import create_app

    schema = create_app("127.0.0.1:1").openapi_schema.to_schema()

    def body(path: str) -> dict:
        return schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]

    def named(reference: dict) -> dict:  # each message is one schema in components, referenced by name
        return schema["components"]["schemas"][reference["$ref"].removeprefix("#/components/schemas/")]

    join = named(body("/v1/rooms/{room_id}/seats"))
    assert join["properties"]["name"]["maxLength"] == 32
    move = named(body("/v1/rooms/{room_id}/moves"))
    assert move["properties"]["requestId"]["maxLength"] == 64
    play = named(named(named(move["properties"]["move"])["properties"]["soker"])["properties"]["play"])
    cards = play["properties"]["cards"]
    assert cards["maxItems"] == 16 and cards["items"]["maxLength"] == 16
    room = named(body("/v1/rooms"))
    assert room["properties"]["options"]["maxProperties"] == 16
