"""How service/gateway/openapi.py names message schemas, on messages made up for the test: one that holds itself, and
two that would share a name."""

from __future__ import annotations

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor

from service.gateway import openapi

FIELD = descriptor_pb2.FieldDescriptorProto


@pytest.fixture(autouse=True)
def own_components(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's schemas go into components of its own, not into the gateway's document."""
    monkeypatch.setattr(openapi, "SCHEMAS", {})
    monkeypatch.setattr(openapi, "_NAMED", {})
    monkeypatch.setattr(openapi, "_MESSAGES", {})
    monkeypatch.setattr(openapi, "_REQUESTS", {})


def node(package: str) -> Descriptor:
    """``message Node { Node child = 1; repeated Node children = 2; int64 depth = 3; }`` in ``package``."""
    file = descriptor_pb2.FileDescriptorProto(name=f"{package}/node.proto", package=package, syntax="proto3")
    message = file.message_type.add(name="Node")
    for name, number, label in (("child", 1, FIELD.LABEL_OPTIONAL), ("children", 2, FIELD.LABEL_REPEATED)):
        message.field.add(name=name, number=number, label=label, type=FIELD.TYPE_MESSAGE, type_name=f".{package}.Node")
    message.field.add(name="depth", number=3, label=FIELD.LABEL_OPTIONAL, type=FIELD.TYPE_INT64)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return pool.FindMessageTypeByName(f"{package}.Node")


def test_a_message_that_holds_itself_refers_to_itself() -> None:
    reference = openapi.message_schema(node("kickoff.test"))
    assert reference.to_schema() == {"$ref": "#/components/schemas/Node"}
    schema = openapi.SCHEMAS["Node"].to_schema()
    assert schema["title"] == "Node" and schema["additionalProperties"] is False
    assert schema["properties"]["child"] == {"$ref": "#/components/schemas/Node"}
    assert schema["properties"]["children"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Node"},
        "default": [],
    }
    depth = schema["properties"]["depth"]
    assert (depth["type"], depth["format"], depth["default"]) == ("string", "int64", "0")
    assert list(openapi.SCHEMAS) == ["Node"]


def test_two_messages_never_share_a_schema_name() -> None:
    openapi.message_schema(node("kickoff.test"))
    with pytest.raises(ValueError, match="Node"):
        openapi.message_schema(node("kickoff.other"))
