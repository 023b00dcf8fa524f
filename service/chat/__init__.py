"""Rooms' chat (issue 49): channels, one sequence per room, bounds and rates, delivery to followers (chat.py),
and its moderation (moderation.py: the text rules and the word filter; reports.py: reports, mutes and the operators'
actions on them)."""
