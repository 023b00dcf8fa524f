"""`kickoff bench ...`: benchmarks that measure the targets quoted in docs/benchmarks.md.

engine.py (random games in one process; a system player's win rate), server.py (a server in another process under
load.py's load; its clocks), goals.py (every per-move goal as a ratio inside one run), cluster.py (1, 2, 3... nodes on
one PostgreSQL), history.py (finished games: memory and start-up), players.py (leaderboards of many rated players, and
a rated game's server CPU against an unrated one's), baseline.py (the bare fan-out server they are compared with),
harness.py (the processes they start), cli.py (`kickoff bench`'s options, and each kind run). Each module also formats
its figures as the line (or table) the command prints.
"""
