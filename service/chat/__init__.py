"""Rooms' chat (issue 49): channels, one sequence per room, bounds and rates, delivery to followers."""
