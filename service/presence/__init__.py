"""Friends' presence (issue 48): service/presence/presence.py."""
