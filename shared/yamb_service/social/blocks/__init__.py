"""A player's blocks (S2): a blocked player cannot message or invite the one who blocked them.
(Favourites, the one-way follow of S1, are the results' `FAV#` items: yamb_service.results.)"""
