"""Tournaments: series of games among the same seats, each game an ordinary room."""
