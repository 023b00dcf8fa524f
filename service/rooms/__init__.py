"""Rooms: one serialised loop per table, its clock, its system players and the directory of rooms."""
