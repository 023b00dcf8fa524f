"""Several server nodes on one PostgreSQL: leases (leases.py) and each node's part in them (node.py)."""
