"""Friends: friend codes, friend requests, friendships and blocks (issue 48)."""
