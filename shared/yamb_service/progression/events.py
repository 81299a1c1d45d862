"""What a finished game counts towards progression (E6-E8), taken from the table's stream by the
results function beside statistics and boards (one stream reader more would pass DynamoDB's
advised two per shard): the week's task counters, the referral's played weeks, the badges'
counters. Each is idempotent: a repeated record counts once."""

from yamb.session.results import GameResult

from yamb_service.progression.wiring import badge_service, referral_service, task_service


def record_game(ended: GameResult) -> None:
    task_service().record_game(ended)
    referral_service().record_game(ended)
    badge_service().record_game(ended)
