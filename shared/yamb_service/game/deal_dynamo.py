"""Whether a tournament is over, read from its item (docs/data-model.md, "Tournaments": the
tournament `T` in `TOURNAMENT#<id>`, a JSON `summary`), for the game service and the public
fairness page: a duplicate tournament's games show their dice only then (yamb.session.deals).
One item read, for a deal game only. The read may be eventually consistent: a tournament's
status never goes back from over to running, so a stale read only withholds a little longer."""

import json

from pynamodb.exceptions import DoesNotExist
from yamb.session.deals import tournament_over

from yamb_service.common.dynamo import ItemModel, busy_when_transient

# The tournament item's key, as yamb_service.competition.tournament_dynamo writes it (a test
# reads a tournament its store wrote: tests/integration/test_duplicate_deal.py).
_PARTITION, _TOURNAMENT = "TOURNAMENT#", "T"


class DynamoTournamentsOver:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    @busy_when_transient
    def over(self, tournament_id: str) -> bool:
        try:
            stored = self._item.get(f"{_PARTITION}{tournament_id}", _TOURNAMENT)
        except DoesNotExist:
            return tournament_over(None)
        # Only the status is read (yamb.competition.tournaments.Tournament's `status`).
        status = json.loads(stored.summary or "{}").get("status")
        return tournament_over(status if isinstance(status, str) else None)
