"""Players: accounts, sign-in through external identity providers, sessions and ratings."""
