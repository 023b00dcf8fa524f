"""Generated gRPC stubs for kickoff.v1 (make stubs)."""
