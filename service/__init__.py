"""Everything with I/O: the command line, and (later) the gRPC server, the store and the REST gateway."""
