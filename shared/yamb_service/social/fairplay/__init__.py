"""Fair play (S7; docs/social.md, "Fair play"): each player's record (ports, dynamo), the check
put mid-game and its answer, the yellow cards and the ban at three (service)."""
