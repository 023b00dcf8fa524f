"""`kickoff operator-keys create`: a new operator key for the operators' API (OperatorService, /v1/ops, /ops), printed
once with the entry the servers are given instead of it (KICKOFF_OPERATOR_KEYS holds hashes only). Nothing is stored:
the key is the operator's to keep, its hash the servers'."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(commands: Any) -> None:
    keys = commands.add_parser(
        "operator-keys", help="operator keys for the operators' API (KICKOFF_OPERATOR_KEYS holds their hashes)"
    )
    verbs = keys.add_subparsers(dest="operator_keys", required=True)
    verbs.add_parser(
        "create", help="make an operator key; print it (only this once) and its KICKOFF_OPERATOR_KEYS entry"
    )


def run(args: argparse.Namespace) -> int:
    from service.operators.keys import new_key

    key_id, key, entry = new_key()
    print(f"operator key {key_id} (shown only now; the servers need only the entry below):")
    print(f"  key:   {key}")
    print(f"  entry: {entry}")
    print("add the entry to KICKOFF_OPERATOR_KEYS on every node (comma-separated), and send the key as X-Operator-Key")
    return 0
