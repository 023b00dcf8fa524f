"""The chat's text rules and the operator's word filter: pure, no store, no clock.

:class:`ChatRules` is what the chat core asks before it keeps a message: :meth:`ChatRules.check` refuses a message
with a control or bidirectional character (``bad_message``, the rules names follow: service/text.py), normalises it as
names are (NFKC, spaces trimmed and collapsed), refuses it past its length (``message_too_long``) and hands it to the
word filter, when the operator set one (KICKOFF_CHAT_FILTER_FILE).

The filter is a list of words and phrases, one a line. A listed word matches case-insensitively and as a whole word
only ("ass" never touches "class" or "assume"), and after the message's NFKC normalisation, so full-width or other
compatibility letters are the plain ones; a zero-width or soft-hyphen character inside a word does not hide it
either. In ``mask`` mode each letter or digit of a match becomes ``*`` (a phrase keeps its spaces); in ``refuse``
mode the message is refused (``message_filtered``). It is a list, not a judge: letters spaced out, letters repeated or
look-alike letters from another script get through, and the operator's reports and mutes are for those.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from service.errors import InvalidRequest
from service.settings import CHAT_FILTER_MODES, ChatSettings
from service.text import forbidden, normalise

MAX_FILTER_ENTRIES = 10_000  # words and phrases one filter file may list
MAX_ENTRY_LENGTH = 100  # characters of one of them
MAX_FILTER_BYTES = 1 << 20  # the filter file, in bytes
# Characters that show nothing but may sit inside a word to hide it from a filter: the soft hyphen, the combining
# grapheme joiner, the Mongolian vowel separator, zero-width spaces and joiners, the word joiner and invisible
# operators, the byte order mark. A filter match may hold any number of them between its letters.
INVISIBLE = "\u00ad\u034f\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff"
_GAP = f"[{INVISIBLE}]*"
_SPACE = f"[\\s{INVISIBLE}]+"


def clean_message(text: str, max_length: int) -> str:
    """The message as it is kept: refused as ``bad_message`` when empty or holding a control or bidirectional
    character (the position is named, the text never), normalised as names are, and refused as
    ``message_too_long`` past ``max_length`` characters."""
    if len(text) > 4 * max_length:  # (normalising may shrink a message, but the raw one may not be huge either)
        raise InvalidRequest(f"a message holds at most {max_length} characters", code="message_too_long", field="text")
    found = forbidden(text, names=True)
    if found is not None:
        index, what = found
        raise InvalidRequest(f"{what} at position {index} is not allowed", code="bad_message", field="text")
    text = normalise(text)
    if not text:
        raise InvalidRequest("the message is empty", code="bad_message", field="text")
    if len(text) > max_length:
        raise InvalidRequest(f"a message holds at most {max_length} characters", code="message_too_long", field="text")
    return text


def _pattern(entry: str) -> str:
    """One listed word or phrase as a pattern: its letters may have invisible characters between them, its words any
    run of spaces (and invisible characters)."""
    return _SPACE.join(_GAP.join(re.escape(char) for char in word) for word in entry.split(" "))


class WordFilter:
    """The operator's word filter: ``entries`` (words or phrases, normalised as messages are) and what it does with a
    message that holds one (``mode``: mask or refuse)."""

    def __init__(self, entries: Iterable[str], mode: str = "mask") -> None:
        if mode not in CHAT_FILTER_MODES:
            raise ValueError(f"a word filter's mode is mask or refuse, not {mode!r}")
        self.mode = mode
        words = sorted({normalise(entry).lower() for entry in entries} - {""}, key=lambda word: (-len(word), word))
        self.entries = tuple(words)
        alternatives = "|".join(_pattern(word) for word in words)
        # Whole words only: no letter, digit or '_' just before or after a match.
        self._regex = re.compile(f"(?<!\\w)(?:{alternatives})(?!\\w)", re.IGNORECASE) if words else None

    @classmethod
    def read(cls, text: str, mode: str = "mask", where: str = "KICKOFF_CHAT_FILTER_FILE") -> WordFilter:
        """The filter a file's text lists: one word or phrase a line, blank lines and lines starting with '#' left
        out. ValueError (naming ``where`` and the line) for a line with a control character or too long, or too
        many lines."""
        entries = []
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if forbidden(line, names=True) is not None:
                raise ValueError(f"{where}: line {number} holds a control or bidirectional character")
            if len(line) > MAX_ENTRY_LENGTH:
                raise ValueError(f"{where}: line {number} is longer than {MAX_ENTRY_LENGTH} characters")
            entries.append(line)
            if len(entries) > MAX_FILTER_ENTRIES:
                raise ValueError(f"{where}: at most {MAX_FILTER_ENTRIES} words or phrases")
        return cls(entries, mode)

    @classmethod
    def from_file(cls, path: str, mode: str = "mask") -> WordFilter:
        """The filter of a UTF-8 file (KICKOFF_CHAT_FILTER_FILE). ValueError naming the setting when it cannot be
        read, is larger than 1 MiB or is not UTF-8."""
        try:
            with open(path, "rb") as file:
                data = file.read(MAX_FILTER_BYTES + 1)
        except OSError as error:
            raise ValueError(f"KICKOFF_CHAT_FILTER_FILE: cannot read {path}: {error.strerror}") from None
        if len(data) > MAX_FILTER_BYTES:
            raise ValueError(f"KICKOFF_CHAT_FILTER_FILE: {path} is larger than {MAX_FILTER_BYTES} bytes")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(f"KICKOFF_CHAT_FILTER_FILE: {path} is not UTF-8 text") from None
        return cls.read(text, mode)

    def __len__(self) -> int:
        return len(self.entries)

    def matches(self, text: str) -> list[tuple[int, int]]:
        """Where listed words are in ``text`` (a message already normalised), as (start, end) spans."""
        if self._regex is None:
            return []
        return [found.span() for found in self._regex.finditer(text)]

    def apply(self, text: str) -> str:
        """``text`` (normalised) with every listed word masked, or refused as ``message_filtered`` in refuse mode.
        Text with no listed word comes back as it is."""
        spans = self.matches(text)
        if not spans:
            return text
        if self.mode == "refuse":
            raise InvalidRequest("the message holds a word this service does not allow", code="message_filtered")
        parts, at = [], 0
        for start, end in spans:
            parts.append(text[at:start])
            parts.append("".join("*" if c.isalnum() else c for c in text[start:end] if c not in INVISIBLE))
            at = end
        parts.append(text[at:])
        return "".join(parts)


@dataclass(frozen=True)
class ChatRules:
    """What a message must be to be kept: at most ``max_length`` characters once normalised, and past the operator's
    word filter (None: no filter)."""

    max_length: int = 300
    filter: WordFilter | None = field(default=None)

    @classmethod
    def from_settings(cls, settings: ChatSettings) -> ChatRules:
        """The rules of KICKOFF_CHAT_MAX_LENGTH, KICKOFF_CHAT_FILTER_FILE and KICKOFF_CHAT_FILTER_MODE (read once, at
        start-up: ValueError naming the setting for a file that will not do)."""
        words = WordFilter.from_file(settings.filter_file, settings.filter_mode) if settings.filter_file else None
        return cls(settings.max_length, words)

    def check(self, text: str) -> str:
        """The message as it is kept (normalised, masked), or InvalidRequest: ``bad_message``, ``message_too_long``,
        ``message_filtered``."""
        text = clean_message(text, self.max_length)
        return self.filter.apply(text) if self.filter is not None else text


__all__ = ["INVISIBLE", "ChatRules", "WordFilter", "clean_message"]
