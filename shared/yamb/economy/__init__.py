"""The token economy's rules (product E1-E5): pure, no storage. yamb_service.wallet_store keeps
the balances and the ledger; yamb_service.economy runs the purchases and gifts."""
