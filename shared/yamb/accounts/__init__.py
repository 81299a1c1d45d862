"""Accounts (product A1-A8): the rules of nicknames, passwords, e-mail addresses, links, prices,
deletion and notification switches, as pure Python. Storage, Cognito and mail are adapters in
yamb_service."""
