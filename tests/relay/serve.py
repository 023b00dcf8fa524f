"""`kickoff` with Relay hosted too: ``python -m tests.relay.serve grpc --port ...`` runs the product's own command
line in a process that has registered the tests' game first (the product never hosts it)."""

from __future__ import annotations

import sys

from cli import main
from tests import relay

if __name__ == "__main__":
    relay.register()
    sys.exit(main(sys.argv[1:]))
