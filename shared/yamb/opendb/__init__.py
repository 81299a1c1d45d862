"""The open game database (issue 32): finished public games exported each month as files anyone
may download and verify, under CC0 1.0 (docs/competition.md, "The open game database")."""
