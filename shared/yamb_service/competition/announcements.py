"""Tournament announcements (A8 "tournament announcements"): a tournament the schedule has just
created is mailed to the players of its rules, the best-rated of its rating pool first, through
the one mail gate (only an active account whose switch is on). Sent once: only the planning
run that created the tournament mails it, so a rerun mails nothing again (a run that fails
halfway leaves the rest unmailed rather than mailing anyone twice)."""

from collections.abc import Callable, Iterable
from datetime import UTC

from yamb.accounts.mail import MailKind
from yamb.competition.ratings import RatingPool
from yamb.competition.tournaments import Tournament

from yamb_service.accounts.mailer import send_gated
from yamb_service.accounts.ports import Mailer, Profiles
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.competition.ports import RatingStore

# Mails per tournament at most (a real audience is chosen by rating, not by mailing everyone).
AUDIENCE = 500


class TournamentAnnouncer:
    def __init__(
        self,
        ratings: RatingStore,
        profiles: Callable[[], Profiles],
        mailer: Callable[[], Mailer],
        web_base_url: str,
        audience: int = AUDIENCE,
    ) -> None:
        self._ratings = ratings
        self._profiles, self._mailer = profiles, mailer
        self._web = web_base_url.rstrip("/")
        self._audience = audience

    def announce(self, tournaments: Iterable[Tournament]) -> int:
        """Mails sent for these new tournaments."""
        sent = 0
        for tournament in tournaments:
            preset = tournament.plan.settings().preset
            if preset is None:
                continue  # no rating pool: nobody is known to play these rules
            pool = RatingPool("individual", f"yamb-{preset}")
            players = [rating.player_id for rating in self._ratings.top(pool, self._audience)]
            starts_at = tournament.plan.starts_at.astimezone(UTC)
            for profile in self._profiles().profiles(players).values():
                values = {
                    "nickname": profile.nickname,
                    "name": tournament.plan.name,
                    "start": starts_at.date(),
                    "hour": f"{starts_at:%H:%M} UTC",
                    "link": f"{self._web}/#/tournaments/{tournament.tournament_id}",
                }
                if send_gated(self._mailer(), profile, MailKind.TOURNAMENT, values):
                    sent += 1
            logger.info("tournament announced", tournament_id=tournament.tournament_id)
        metrics.add_metric(name="TournamentAnnounced", unit=MetricUnit.Count, value=sent)
        return sent
