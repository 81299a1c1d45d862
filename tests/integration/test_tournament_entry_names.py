"""The purge's renaming of a player's tournament entries (A7, docs/accounts.md) on moto: each
entry of theirs, in every tournament listed, takes the id name on its version; the other
entrants' stay theirs; a rerun writes nothing; and a tournament's write made on the version read
before the rename loses (its run reads the new name), so the nickname is not written back."""

from datetime import UTC, datetime, timedelta
from typing import Any

from yamb.accounts.nicknames import purged_nickname
from yamb.competition.standings import Entry
from yamb.competition.tournaments import TournamentPlan, new_tournament
from yamb_service.competition.entry_names_dynamo import DynamoTournamentEntryNames
from yamb_service.competition.tournament_dynamo import DynamoTournamentStore

NOW = datetime(2026, 12, 5, 12, tzinfo=UTC)
ANA = "0a1b2c3d-4e5f-6789-abcd-ef0123456789"


def _tournament(store: DynamoTournamentStore, tournament_id: str, *entrants: str) -> None:
    plan = TournamentPlan(kind="duplicate", name="A duplicate", starts_at=NOW + timedelta(hours=1),
                          minutes=10, rules={"columns": ["free"]}, ranked=False)  # fmt: skip
    assert store.create(new_tournament(tournament_id, plan, "cd" * 32, NOW))
    for player_id in entrants:
        entry = Entry(player_id=player_id, nickname=f"name-{player_id[:4]}", joined_at=NOW)
        assert store.enter(store.state(tournament_id).tournament, entry) == "written"


def test_a_purge_renames_the_players_entries_in_every_tournament_once(
    table: str, item: Any
) -> None:
    # given ana entered two tournaments of three, beside ben
    store = DynamoTournamentStore(item)
    _tournament(store, "t-one", ANA, "ben")
    _tournament(store, "t-two", "ben")
    _tournament(store, "t-three", "ben", ANA)
    read_before = store.state("t-one")

    # when her entries are renamed to her id name, twice (a rerun of the purge)
    names = DynamoTournamentEntryNames(item)
    written = names.rename_entries(ANA, purged_nickname(ANA))
    again = names.rename_entries(ANA, purged_nickname(ANA))

    # then each of hers took the id name on a new version, once; ben's stayed his
    assert (written, again) == (2, 0)
    for tournament_id in ("t-one", "t-three"):
        entries = store.state(tournament_id).entries
        assert entries[ANA].nickname == purged_nickname(ANA)
        assert entries[ANA].version == 2
        assert (entries["ben"].nickname, entries["ben"].version) == ("name-ben", 1)
    # and a tournament's write on the entry as read before the rename loses: nothing puts the
    # nickname back
    stale = read_before.entries[ANA].model_copy(update={"points": 2})
    tournament = read_before.tournament
    assert store.advance(tournament, tournament, entries=[stale]) == "moved"
    assert store.state("t-one").entries[ANA].nickname == purged_nickname(ANA)


def test_a_player_in_no_tournament_has_nothing_renamed(table: str, item: Any) -> None:
    # given a tournament ana did not enter / when her entries are renamed / then none is
    store = DynamoTournamentStore(item)
    _tournament(store, "t-solo", "ben")
    assert DynamoTournamentEntryNames(item).rename_entries(ANA, purged_nickname(ANA)) == 0
    assert store.state("t-solo").entries["ben"].nickname == "name-ben"
