"""Fair deals: a game's deal committed before its first card and checked by anyone once it is over.

:mod:`deals.scheme` says how a commitment and a game's seed are computed; :mod:`deals.verify` checks a replay file
with the engines and the standard library alone. Nothing here imports the server.
"""
