"""Results (R1-R4, S4): what finished games add up to. Pure rules, no storage: which boards a
result enters and how an entry improves, the periods of the boards, the prizes of a board's
places, a player's statistics and their head-to-head with each opponent."""
