"""Clubs' storage, service and HTTP routes (docs/clubs.md); the rules are yamb.clubs."""
