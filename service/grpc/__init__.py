"""The gRPC transport: servicers, seat tokens, the one error -> status mapping, engine <-> proto conversion."""
