"""Clubs (C1-C8): founding, entry, roles, levels and the treasury, as pure rules and models
(docs/clubs.md). Storage and the HTTP API are yamb_service.clubs."""
