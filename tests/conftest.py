"""Test-wide settings."""

from __future__ import annotations

import os

# gRPC's C core logs routine connection events (GOAWAY on a server stop) at INFO; keep test output for failures.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
