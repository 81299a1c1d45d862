"""Live games: the stored session, what actions and deadlines do to it, and what clients see."""
