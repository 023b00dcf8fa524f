"""Text people type that others read (names, chat messages): the characters refused in it and how it is normalised.

The request bounds (service/grpc/limits.py) apply these rules to every name field; the chat's rules
(service/chat/moderation.py) apply them to messages, so that a name and a message are cleaned alike."""

from __future__ import annotations

import unicodedata

# Bidirectional controls reorder what a reader sees (U+202E turns "evil.exe" round); line and paragraph separators
# break layouts. Control characters (category Cc: NUL, CR, LF, ESC, DEL...) are refused everywhere.
NOT_IN_NAMES = frozenset({0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})


def forbidden(value: str, *, names: bool = True) -> tuple[int, str] | None:
    """The first character ``value`` may not hold, as (its position, what it is: 'a control character' or 'a
    bidirectional or line control'), or None. Control characters are refused in any text; bidirectional and line
    controls in names (``names``) and in what is read as names are."""
    for index, char in enumerate(value):
        code = ord(char)
        if (code < 0x20 or 0x7F <= code < 0xA0) or (names and code in NOT_IN_NAMES):
            what = "a control character" if unicodedata.category(char) == "Cc" else "a bidirectional or line control"
            return index, what
    return None


def normalise(value: str) -> str:
    """A name as it is kept: NFKC (full-width and other compatibility forms become their plain letters), the spaces
    trimmed at both ends and each run of them made one space."""
    return " ".join(unicodedata.normalize("NFKC", value).split())
