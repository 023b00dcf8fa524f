"""Webhooks: the address policy, the sender, and the dispatcher that drains the outbox."""
