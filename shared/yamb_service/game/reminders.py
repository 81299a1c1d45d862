"""Return reminders (A8) as mail: the clock function, after the write that took a reminder
(yamb.session.reminders), mails the away player through the one mail gate, which sends only
to an active account whose return-reminder switch is on."""

from collections.abc import Callable

from yamb.accounts.mail import MailKind
from yamb.i18n import Text
from yamb.session.model import GameSession

from yamb_service.accounts.mailer import send_gated
from yamb_service.accounts.ports import Mailer, Profiles
from yamb_service.common.observability import logger


class MailedReminders:
    def __init__(
        self, profiles: Callable[[], Profiles], mailer: Callable[[], Mailer], web_base_url: str
    ) -> None:
        # Both made on the first reminder: the clock function's start reads no account.
        self._profiles, self._mailer = profiles, mailer
        self._web = web_base_url.rstrip("/")

    def remind(self, player_id: str, session: GameSession) -> bool:
        """Whether a mail went (not to a gone account, nor past the player's switch)."""
        profile = self._profiles().get(player_id)
        if profile is None:
            return False
        where = (
            Text("The table you sat down at is waiting for players.")
            if session.status == "waiting"
            else Text("Your slow game is waiting for your turn.")
        )
        data: dict[str, object] = {
            "nickname": profile.nickname,
            "where": where,
            "link": f"{self._web}/",
        }
        try:
            return send_gated(self._mailer(), profile, MailKind.RETURN_REMINDER, data)
        except Exception:
            # A reminder is a courtesy: the game's write stands, the mail is not retried.
            logger.exception("return reminder not sent", player_id=player_id)
            return False
