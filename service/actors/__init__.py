"""The actor runtime: everything the server keeps alive (rooms, tournaments), each one serialised, journaled,
lease-owned actor."""
