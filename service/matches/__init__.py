"""Matchmaking: tickets wait in a game's queue, the matchmaker makes tables of them, and each table becomes a room."""
