"""The chat's text rules and the operator's word filter (service/chat/moderation.py), pure: what a player sees of
their message (normalised, masked) or the reason it is refused. Each test runs in milliseconds."""

from __future__ import annotations

import pytest

from service.chat.moderation import ChatRules, WordFilter, clean_message
from service.errors import InvalidRequest
from service.settings import ChatSettings

WORDS = "# the operator's list\nbad\n\nDarn it\nass\n"


def refused(call, *args) -> str:
    with pytest.raises(InvalidRequest) as caught:
        call(*args)
    return caught.value.code


def test_a_message_is_normalised_as_names_are() -> None:
    """Full-width letters become plain ones, runs of spaces one space, and the ends are trimmed."""
    assert clean_message("  ｇｏｏｄ   game  ", 300) == "good game"


@pytest.mark.parametrize(
    "text",
    ["hi\nthere", "tab\there", "nul\x00", "esc\x1b[31m", "del\x7f", "\u202eexe.txt", "a\u2066b", "a\u2028b", "   "],
)
def test_control_and_bidirectional_characters_are_refused(text: str) -> None:
    """Line breaks, terminal escapes and bidi overrides (which reorder what a reader sees) are bad_message, and the
    refusal names the position, never the text."""
    with pytest.raises(InvalidRequest) as caught:
        clean_message(text, 300)
    assert caught.value.code == "bad_message"
    assert text.strip() == "" or text not in str(caught.value)


def test_the_length_is_counted_after_normalising() -> None:
    assert clean_message("a" + " " * 9 + "b", 3) == "a b"
    assert refused(clean_message, "abcd", 3) == "message_too_long"
    assert refused(clean_message, " " * 13, 3) == "message_too_long"  # (the raw text is bounded too)


def test_the_filter_masks_whole_words_in_any_case() -> None:
    words = WordFilter.read(WORDS)
    assert len(words) == 3  # (the comment and the blank line are not words)
    assert words.apply("that was BAD, really Bad!") == "that was ***, really ***!"
    assert words.apply("darn \u200b it") == "****  **"  # (a phrase's words: any spaces between them)
    assert ChatRules(300, words).check("darn   IT, again") == "**** **, again"


def test_the_filter_never_masks_inside_a_longer_word() -> None:
    """A listed "ass" leaves "class", "assume", "bass_line" and "badly" alone."""
    words = WordFilter.read(WORDS)
    text = "class assume bass_line badly bad2 _bad"
    assert words.apply(text) == text
    assert words.apply("ass-kicking") == "***-kicking"  # (a hyphen ends a word)


@pytest.mark.parametrize(
    "trick",
    [
        "ＢＡＤ",  # full-width capitals: NFKC makes them "BAD"
        "𝐛𝐚𝐝",  # mathematical bold letters: NFKC too
        "b\u200bad",  # a zero-width space inside the word
        "b\u00ada\u00add",  # soft hyphens
        "ba\ufeffd",  # a byte order mark
    ],
)
def test_unicode_tricks_do_not_slip_through(trick: str) -> None:
    rules = ChatRules(300, WordFilter.read(WORDS))
    assert rules.check(f"you {trick} player") == "you *** player"
    refusing = ChatRules(300, WordFilter.read(WORDS, mode="refuse"))
    assert refused(refusing.check, f"you {trick} player") == "message_filtered"


def test_refuse_mode_refuses_and_lets_clean_messages_through() -> None:
    rules = ChatRules(300, WordFilter.read(WORDS, mode="refuse"))
    assert refused(rules.check, "Darn it!") == "message_filtered"
    assert rules.check("well played") == "well played"


def test_no_filter_by_default(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("KICKOFF_CHAT_FILTER_FILE", raising=False)
    assert ChatRules.from_settings(ChatSettings()).filter is None
    assert ChatRules.from_settings(ChatSettings()).check("bad") == "bad"
    listed = tmp_path / "words.txt"
    listed.write_text(WORDS, encoding="utf-8")
    rules = ChatRules.from_settings(ChatSettings(filter_file=str(listed), filter_mode="refuse"))
    assert refused(rules.check, "bad") == "message_filtered"


def test_a_filter_file_that_will_not_do_stops_the_start(tmp_path) -> None:
    """Each names the setting and the line, so the operator knows what to fix."""
    with pytest.raises(ValueError, match="cannot read"):
        WordFilter.from_file(str(tmp_path / "missing.txt"))
    with pytest.raises(ValueError, match="line 2 holds a control"):
        WordFilter.read("fine\nnot\u202efine\n")
    with pytest.raises(ValueError, match="line 1 is longer"):
        WordFilter.read("x" * 101)
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8"):
        WordFilter.from_file(str(latin))
    with pytest.raises(ValueError, match="KICKOFF_CHAT_FILTER_MODE"):
        ChatSettings(filter_mode="shout")


def test_the_example_filter_file_reads() -> None:
    """deploy/chat-filter.txt, which docs/guides/chat-moderation.md quotes, is a filter the server takes."""
    words = WordFilter.from_file("deploy/chat-filter.txt")
    assert ChatRules(300, words).check("gg NOOB, just uninstall   the game") == "gg ****, just ********* *** ****"
