"""A room's chat (issue 49): its moderation (moderation.py: the text rules and the word filter; reports.py: reports,
mutes and the operators' actions on them)."""
