"""Request bodies: the proto3 JSON mapping of a request message, read without ever carrying the body back.

A refusal (400, ``bad_request``) names the field at fault by its path in the message (``move.soker.play.cards[0]``,
the message's own names only) and says what the field takes: never the value sent, nor a field name the message does
not have (that is the client's input too: an unknown field is refused with the list of the message's fields). A body
nested deeper than :data:`MAX_DEPTH` is refused before it is read into the message, whatever its depth (a body of
64 KiB of ``[`` included): no Python internals, no 500.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from service.gateway.problems import BadRequest

M = TypeVar("M", bound=Message)
MAX_DEPTH = 32  # arrays and objects inside one another; the deepest request (a move) nests 5
F = FieldDescriptor
_RANGES = {
    F.TYPE_INT32: (-(2**31), 2**31 - 1),
    F.TYPE_SINT32: (-(2**31), 2**31 - 1),
    F.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    F.TYPE_UINT32: (0, 2**32 - 1),
    F.TYPE_FIXED32: (0, 2**32 - 1),
    F.TYPE_INT64: (-(2**63), 2**63 - 1),
    F.TYPE_SINT64: (-(2**63), 2**63 - 1),
    F.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    F.TYPE_UINT64: (0, 2**64 - 1),
    F.TYPE_FIXED64: (0, 2**64 - 1),
}
_INTEGER_TEXT = re.compile(r"-?[0-9]+")
_NUMBER_TEXT = re.compile(r"-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|NaN|-?Infinity")


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Duplicate
    return value


def parse_body(raw: bytes, message: M) -> M:
    """``raw`` read into ``message``; BadRequest saying what is wrong (and where) otherwise."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise BadRequest(f"the body nests arrays or objects more than {MAX_DEPTH} deep") from None
    except _Duplicate:
        raise BadRequest("the body is not JSON the proto3 mapping reads: an object names a field twice") from None
    except json.JSONDecodeError as error:
        raise BadRequest(
            f"the body is not JSON text: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise BadRequest("the body is not JSON the gateway reads: a number has too many digits") from None
    if _deeper_than(value, MAX_DEPTH):
        raise BadRequest(f"the body nests arrays or objects more than {MAX_DEPTH} deep")
    if not isinstance(value, dict):
        raise BadRequest(f"the body must be a JSON object (a {message.DESCRIPTOR.name})")
    try:
        json_format.ParseDict(value, message)
    except (json_format.ParseError, ValueError, TypeError):
        path, why = _fault(value, message.DESCRIPTOR, "") or ("", "")
        raise BadRequest(
            why or f"the body is not a {message.DESCRIPTOR.name} in the proto3 JSON mapping", field=path
        ) from None
    return message


def _deeper_than(value: Any, most: int) -> bool:
    """Whether arrays and objects nest more than ``most`` deep in ``value`` (walked without recursion)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > most:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _fault(value: Any, descriptor: Descriptor, path: str) -> tuple[str, str] | None:
    """The first field of ``value`` the mapping cannot read into ``descriptor``'s message, as (path, what is wrong);
    None where none is found. Names only the message's own fields, never anything of ``value``."""
    known = _WELL_KNOWN.get(descriptor.full_name)
    if known is not None:
        what = _WELL_KNOWN_WHAT[descriptor.full_name]
        return None if known(value) else (path, f"{path or 'the body'} must be {what}")
    if not isinstance(value, dict):
        return path, f"{path or 'the body'} must be a JSON object (a {descriptor.name})"
    fields = {f.json_name: f for f in descriptor.fields} | {f.name: f for f in descriptor.fields}
    chosen: dict[str, str] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None:
            names = ", ".join(f.json_name for f in descriptor.fields) or "none"
            where = f"{path}: " if path else ""
            return path, f"{where}{descriptor.name} has no such field (its fields: {names})"
        where = _join(path, field.json_name)
        if item is None:  # null: the field's default
            continue
        oneof = field.containing_oneof
        if oneof is not None and not oneof.name.startswith("_"):  # a real oneof, not a proto3 optional
            if oneof.name in chosen:
                names = ", ".join(f.json_name for f in oneof.fields)
                return where, f"{_join(path, oneof.name)}: at most one of {names}"
            chosen[oneof.name] = field.json_name
        fault = _field_fault(item, field, where)
        if fault is not None:
            return fault
    return None


def _field_fault(value: Any, field: FieldDescriptor, path: str) -> tuple[str, str] | None:
    entry = field.message_type
    if entry is not None and entry.GetOptions().map_entry:
        if not isinstance(value, dict):
            return path, f"{path} must be a JSON object"
        single = entry.fields_by_name["value"]
        for item in value.values():
            fault = _single_fault(item, single, path)
            if fault is not None:
                return fault
        return None
    if field.is_repeated:
        if not isinstance(value, list):
            return path, f"{path} must be a JSON array"
        for index, item in enumerate(value):
            fault = _single_fault(item, field, f"{path}[{index}]")
            if fault is not None:
                return fault
        return None
    return _single_fault(value, field, path)


def _single_fault(value: Any, field: FieldDescriptor, path: str) -> tuple[str, str] | None:
    kind = field.type
    if kind == F.TYPE_MESSAGE:
        return _fault(value, field.message_type, path)
    if kind == F.TYPE_ENUM:
        names = [v.name for v in field.enum_type.values]
        if (isinstance(value, str) and value in names) or (isinstance(value, int) and not isinstance(value, bool)):
            return None
        return path, f"{path} must be one of {', '.join(names)}"
    if kind in _RANGES:
        low, high = _RANGES[kind]
        what = "a number or a decimal string" if kind in _INT64 else "a number"
        if _integer(value, low, high):
            return None
        return path, f"{path} must be an integer from {low} to {high} ({what})"
    if kind in (F.TYPE_DOUBLE, F.TYPE_FLOAT):
        if (isinstance(value, int | float) and not isinstance(value, bool)) or (
            isinstance(value, str) and _NUMBER_TEXT.fullmatch(value)
        ):
            return None
        return path, f"{path} must be a number"
    if kind == F.TYPE_BOOL:
        return None if isinstance(value, bool) else (path, f"{path} must be true or false")
    if not isinstance(value, str):
        return path, f"{path} must be a string"
    if kind == F.TYPE_STRING:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path, f"{path} must be Unicode text (it holds an unpaired surrogate)"
        return None
    return None if re.fullmatch(r"[A-Za-z0-9+/_=-]*", value) else (path, f"{path} must be base64 text")


_INT64 = {F.TYPE_INT64, F.TYPE_SINT64, F.TYPE_SFIXED64, F.TYPE_UINT64, F.TYPE_FIXED64}


def _integer(value: Any, low: int, high: int) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        if not value.is_integer():
            return False
        value = int(value)
    elif isinstance(value, str):
        if not _INTEGER_TEXT.fullmatch(value) or len(value) > 21:
            return False
        value = int(value)
    return isinstance(value, int) and low <= value <= high


_WELL_KNOWN = {
    "google.protobuf.Struct": lambda value: isinstance(value, dict),
    "google.protobuf.ListValue": lambda value: isinstance(value, list),
    "google.protobuf.Value": lambda value: True,
    "google.protobuf.Timestamp": lambda value: isinstance(value, str),
    "google.protobuf.Duration": lambda value: isinstance(value, str),
}
_WELL_KNOWN_WHAT = {
    "google.protobuf.Struct": "a JSON object",
    "google.protobuf.ListValue": "a JSON array",
    "google.protobuf.Value": "a JSON value",
    "google.protobuf.Timestamp": "an RFC 3339 time",
    "google.protobuf.Duration": "a duration such as 1.5s",
}
