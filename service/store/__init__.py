"""The store: SQLAlchemy models, the journal that commits moves in groups, and loading rooms back after a restart."""
