"""Requests checked at the edge, before anything reaches a room or the store.

Every bound lives in one place: the ``(kickoff.v1.limit)`` option on the field in ``proto/`` (see limits.proto). This
module reads those options once per message type into a small plan, and :func:`check_request` walks a request along
its plan: strings within their length and character class, repeated fields and Structs within their counts, nested
messages (a move inside a play-stream message) likewise. Names are normalised in place. A request that breaks a bound
is refused with InvalidRequest naming the field (``field`` in the ErrorInfo metadata) and never echoing what was sent
beyond the offending character's code point.

Bytes that do not even decode as the request message reach the servicers as :class:`Malformed` (see
:func:`tolerant`), so they are refused like any other bad request instead of failing inside grpc with UNKNOWN and a
logged traceback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import DecodeError, Message

from kickoff.v1 import limits_pb2
from service.errors import InvalidRequest
from service.text import forbidden, normalise

STRUCT = "google.protobuf.Struct"
STRUCT_KEY_LENGTH = 32  # a Struct's keys are identifiers of at most this many characters (limits.proto says so)
STRUCT_TEXT_LENGTH = 32  # and its string values at most this many characters
_IDENTIFIER = re.compile(r"[A-Za-z0-9_-]*")
_TOKEN = re.compile(r"[\x21-\x7e]*")
_ANY, _IDENTIFIER_KIND, _NAME, _TOKEN_KIND = (
    limits_pb2.TEXT_KIND_UNSPECIFIED,
    limits_pb2.TEXT_KIND_IDENTIFIER,
    limits_pb2.TEXT_KIND_NAME,
    limits_pb2.TEXT_KIND_TOKEN,
)


class Malformed:
    """Stands for a request whose bytes are not a valid message of its type."""

    __slots__ = ("type_name",)

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name


def tolerant(deserializer: Callable[[bytes], Message], type_name: str) -> Callable[[bytes], Message | Malformed]:
    """``deserializer``, returning :class:`Malformed` instead of raising on bytes that do not decode."""

    def decode(data: bytes) -> Message | Malformed:
        try:
            return deserializer(data)
        except DecodeError:
            return Malformed(type_name)

    return decode


@dataclass(frozen=True)
class _Step:
    name: str
    kind: str  # text, texts (repeated string), struct, message, messages (repeated message), values (repeated number)
    limit: limits_pb2.FieldLimit | None
    plan: tuple[_Step, ...] = ()  # a message field's own plan


_PLANS: dict[str, tuple[_Step, ...]] = {}


def field_limit(field: FieldDescriptor) -> limits_pb2.FieldLimit | None:
    """The field's ``(kickoff.v1.limit)`` option, or None."""
    options = field.GetOptions()
    return options.Extensions[limits_pb2.limit] if options.HasExtension(limits_pb2.limit) else None


def _plan(descriptor: Descriptor) -> tuple[_Step, ...]:
    plan = _PLANS.get(descriptor.full_name)
    if plan is None:
        _PLANS[descriptor.full_name] = ()  # a message that holds itself ends here
        steps = []
        for field in descriptor.fields:
            limit = field_limit(field)
            repeated = field.is_repeated
            if field.message_type is not None and field.message_type.full_name == STRUCT:
                steps.append(_Step(field.name, "struct", limit))
            elif field.message_type is not None:
                inner = _plan(field.message_type)
                if inner or limit is not None:
                    steps.append(_Step(field.name, "messages" if repeated else "message", limit, inner))
            elif field.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES) and limit is not None:
                steps.append(_Step(field.name, "texts" if repeated else "text", limit))
            elif repeated and limit is not None:  # (repeated numbers: their count)
                steps.append(_Step(field.name, "values", limit))
        plan = _PLANS[descriptor.full_name] = tuple(steps)
    return plan


def check_request(request: Message | Malformed) -> None:
    """Raises InvalidRequest for a request that breaks a bound of its type (or did not decode); normalises names."""
    if type(request) is Malformed:
        raise InvalidRequest(f"the request is not a valid {request.type_name} message", code="malformed_request")
    _check(request, _plan(request.DESCRIPTOR), "")


def _check(message: Message, plan: tuple[_Step, ...], prefix: str) -> None:
    for step in plan:
        path = prefix + step.name
        kind = step.kind
        if kind == "text":
            value = getattr(message, step.name)
            if value:
                checked = _text(value, step.limit, path)  # type: ignore[arg-type]
                if checked is not value:
                    setattr(message, step.name, checked)
        elif kind == "message":
            if message.HasField(step.name):
                _check(getattr(message, step.name), step.plan, path + ".")
        else:
            values = getattr(message, step.name)
            if kind == "struct":
                values = values.fields if message.HasField(step.name) else {}
            limit = step.limit
            if limit is not None and limit.max_items and len(values) > limit.max_items:
                raise _refusal(path, f"at most {limit.max_items} entries", "too_many")
            if kind == "texts":
                for index, value in enumerate(values):
                    checked = _text(value, limit, f"{path}[{index}]")  # type: ignore[arg-type]
                    if checked is not value:
                        values[index] = checked
            elif kind == "messages":
                for index, value in enumerate(values):
                    _check(value, step.plan, f"{path}[{index}].")
            elif kind == "struct":
                for key, value in values.items():
                    _struct_entry(key, value, f"{path}.")


def _struct_entry(key: str, value: Any, prefix: str) -> None:
    if len(key) > STRUCT_KEY_LENGTH or not _IDENTIFIER.fullmatch(key):
        raise _refusal(
            prefix.rstrip("."),
            f"keys are identifiers of at most {STRUCT_KEY_LENGTH} letters, digits, '-' or '_'",
            "bad_characters",
        )
    which = value.WhichOneof("kind")
    if which in ("struct_value", "list_value"):
        raise _refusal(prefix + key, "a number, true/false or a short string, not a list or an object", "bad_value")
    if which == "string_value":
        _text(value.string_value, limits_pb2.FieldLimit(max_length=STRUCT_TEXT_LENGTH), prefix + key)


def _text(value: str | bytes, limit: limits_pb2.FieldLimit, path: str) -> str | bytes:
    """The value as it may be kept (a name normalised), or InvalidRequest naming ``path``."""
    most = limit.max_length
    if isinstance(value, bytes):
        if most and len(value) > most:
            raise _refusal(path, f"at most {most} bytes", "too_long")
        return value
    kind = limit.text
    if kind == _NAME:
        # Normalising can shrink a string (runs of spaces) but the raw one may not be huge either.
        if most and len(value) > 4 * most:
            raise _refusal(path, f"at most {most} characters", "too_long")
        _no_controls(value, path, names=True)
        value = normalise(value)
    if most and len(value) > most:
        raise _refusal(path, f"at most {most} characters", "too_long")
    if kind == _IDENTIFIER_KIND:
        if not _IDENTIFIER.fullmatch(value):
            _bad_character(value, path, _IDENTIFIER, "only letters, digits, '-' and '_'")
    elif kind == _TOKEN_KIND:
        if not _TOKEN.fullmatch(value):
            _bad_character(value, path, _TOKEN, "only printable ASCII without spaces")
    elif kind == _ANY:
        _no_controls(value, path, names=False)
    return value


def _no_controls(value: str, path: str, *, names: bool) -> None:
    found = forbidden(value, names=names)  # (service/text.py: the rules names and chat messages share)
    if found is not None:
        index, what = found
        raise _refusal(path, f"{what} at position {index} is not allowed", "bad_characters")


def _bad_character(value: str, path: str, allowed: re.Pattern[str], what: str) -> None:
    index = allowed.match(value).end()  # type: ignore[union-attr]
    raise _refusal(path, f"{what} (position {index} is not)", "bad_characters")


def _refusal(path: str, why: str, code: str) -> InvalidRequest:
    if path == "seed":  # (a seat's seed for the fair deal: every request that takes one names its refusal so)
        code = "bad_seed"
    return InvalidRequest(f"{path}: {why}", code=code, field=path)
