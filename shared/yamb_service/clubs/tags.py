"""What the other domains show of the clubs: the main club's tag beside a nickname (C1: the
players list, the boards, a player's page; two batch reads whatever the number of players, a
closed club showing none) and a player's club mates (the boards' clubs kind, R1)."""

from collections.abc import Sequence

from yamb.clubs.tag import TagView

from yamb_service.clubs.ports import ClubStore
from yamb_service.clubs.service import tag_view


class MainTags:
    def __init__(self, store: ClubStore) -> None:
        self.store = store

    def __call__(self, player_ids: Sequence[str]) -> dict[str, TagView]:
        """Each of these players' main club's tag, for those in a live club."""
        mains = self.store.main_clubs(player_ids)
        clubs = self.store.clubs(list(set(mains.values())))
        return {
            player: tag_view(clubs[club_id])
            for player, club_id in mains.items()
            if club_id in clubs and not clubs[club_id].closed and not clubs[club_id].hidden
        }


class ClubMates:
    """The members of a player's live clubs (the boards' clubs kind, R1): one query a club."""

    def __init__(self, store: ClubStore) -> None:
        self.store = store

    def __call__(self, player_id: str) -> list[str]:
        live = [m.club_id for m in self.store.player_clubs(player_id).clubs if not m.dormant]
        mates = {member.player_id for club_id in live for member in self.store.members(club_id)}
        return sorted(mates - {player_id})
