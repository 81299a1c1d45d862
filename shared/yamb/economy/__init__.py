"""The token economy's rules (product E1-E5): pure, no storage.

yamb_service.economy.wallet_dynamo keeps the balances and the ledger;
yamb_service.economy.service runs the purchases and gifts."""
