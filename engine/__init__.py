"""Pure game engines: rules, views and bots, with no I/O. See :mod:`engine.core` for the interface every game fits."""
