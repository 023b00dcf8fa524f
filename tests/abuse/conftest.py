"""The abuse suite: each case an attacker or a clumsy client tried, replayed on loopback and bounded in count and
time. Servers run in this process on port 0 (tests/servers.py) unless a case needs a real process (kill -9, a full
disk)."""
