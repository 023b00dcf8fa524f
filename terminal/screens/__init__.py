"""The terminal client's screens, one module for each room of it: forms.py (the room form, Play now), lobby.py,
search.py (Play now's search), players.py (My games, the leaderboards) and table.py; what they share (how a room's
status, a rating or a refusal reads; opening a replay) is shared.py. A screen opens the ones it leads to; the lobby,
which the others lead back to, is reached through the app (:mod:`terminal.app`), which holds them together."""
