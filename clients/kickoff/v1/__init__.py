"""Generated from proto/kickoff/v1 by make stubs: do not edit."""
