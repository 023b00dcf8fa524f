"""Operator keys: made by `kickoff operator-keys create`, given to the servers as hashes, compared in constant time;
and OperatorService's contract: every request field bounded, its bound stated in its comment."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from google.protobuf.descriptor import FieldDescriptor

from cli import main
from kickoff.v1 import operator_pb2
from service.errors import PermissionDenied, Unauthenticated
from service.grpc.limits import field_limit
from service.operators.keys import OperatorKeys, key_hash, parse_entries
from service.settings import OperatorSettings

PROTO = Path(__file__).parents[2] / "proto" / "kickoff" / "v1" / "operator.proto"


def test_the_cli_prints_a_key_once_with_the_entry_the_servers_take(capsys, monkeypatch) -> None:
    assert main(["operator-keys", "create"]) == 0
    out = capsys.readouterr().out
    key = re.search(r"key:\s+(ko_\S+)", out).group(1)
    entry = re.search(r"entry:\s+(\S+)", out).group(1)
    key_id = key.split("_")[1]
    assert entry == f"{key_id}:{key_hash(key)}" and key not in entry
    monkeypatch.setenv("KICKOFF_OPERATOR_KEYS", f" {entry} ,other:{'0' * 64}")
    keys = OperatorKeys.from_settings(OperatorSettings().keys)
    assert len(keys) == 2 and keys.check(key).key_id == key_id
    with pytest.raises(Unauthenticated) as refused:
        keys.check(key + "x")
    assert refused.value.code == "bad_operator_key"


def test_the_settings_refuse_what_is_not_a_hash_and_never_echo_it() -> None:
    for text in ("plain-key", f"id:{'z' * 64}", f"bad id:{'0' * 64}", f"a:{'0' * 64},a:{'1' * 64}"):
        with pytest.raises(ValueError) as refused:
            parse_entries(text)
        assert text not in str(refused.value)
    assert parse_entries(f"{'A' * 64}") == (("a" * 12, "a" * 64),), "a bare hash is named by its first digits"


def test_the_webhooks_key_is_an_operator_key_too_and_the_refusals_are_typed() -> None:
    plain = "a plain operator key of 32 characters at least"
    keys = OperatorKeys.from_settings((), plain)
    assert keys.check(plain).key_id == key_hash(plain)[:12]
    with pytest.raises(Unauthenticated) as missing:
        keys.check("")
    assert missing.value.code == "operator_key_required"
    with pytest.raises(Unauthenticated) as api_key:
        keys.check("kk_0123456789ab_" + plain)
    assert api_key.value.code == "bad_operator_key"
    with pytest.raises(PermissionDenied) as off:
        OperatorKeys().check(plain)
    assert off.value.code == "operator_api_off"


def test_every_request_field_of_the_operator_service_is_bounded_as_its_comment_says() -> None:
    source = PROTO.read_text()
    service = operator_pb2.DESCRIPTOR.services_by_name["OperatorService"]
    checked = 0
    for method in service.methods:
        message = method.input_type
        for field in message.fields:
            if field.type != FieldDescriptor.TYPE_STRING and not field.is_repeated:
                continue
            limit = field_limit(field)
            assert limit is not None and limit.max_length, field.full_name
            block = source[source.index(f"message {message.name} {{") :]
            comment = block[: block.index(f" {field.name} = ")].splitlines()[-2]
            assert f"at most {limit.max_length}" in comment.lower(), field.full_name
            checked += 1
    assert checked >= 9
