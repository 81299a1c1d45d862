"""The local stack behind `make dev` and the integration tests: AWS parts emulated in-process."""
