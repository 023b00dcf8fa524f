"""The operators' API (OperatorService): the operator keys that guard it, and what it reads of the store."""
