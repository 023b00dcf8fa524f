"""The REST gateway for web and mobile clients (Litestar); it reaches the game only through the gRPC stubs."""
