"""Webhooks: endpoints operators register, the events kickoff sends them, and the outbox that delivers them."""
