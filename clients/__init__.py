"""Generated gRPC client stubs (from proto/, by `make stubs`). Never edited by hand."""
