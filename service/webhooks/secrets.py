"""The endpoints' signing secrets: sealed by the store's :class:`service.secrets.Sealer` (moved there, as the rooms'
deal secrets are sealed with it too); the names stay here for the webhooks' modules."""

from service.secrets import PREFIX, STORE_KEY, Sealer, check_secret, hint, new_secret

__all__ = ["PREFIX", "STORE_KEY", "Sealer", "check_secret", "hint", "new_secret"]
