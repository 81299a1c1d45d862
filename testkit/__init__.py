"""What the tests and the benches share, so that bench/ never imports tests/: the game table on
moto as template.yaml declares it (table), the game service wired to it with recording fakes
and a clock that stands still (service, fakes), a fake Stripe at its SDK's HTTP-client level
(stripe) and a token verifier's key set given as data (auth). The tests' fixtures
(tests/integration/conftest.py) are thin wrappers around these. Not shipped to Lambda."""
