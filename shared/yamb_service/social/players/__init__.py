"""The players list with presence (S1) and blocks (S2): `GET /players`, `/me/blocks`."""
