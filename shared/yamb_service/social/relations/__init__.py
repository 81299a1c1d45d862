"""A player's favourites (a one-way follow, S1) and blocks (S2: a blocked player cannot message
or invite the one who blocked them)."""
