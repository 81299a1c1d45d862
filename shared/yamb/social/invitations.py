"""Invitations to a game (S2), pure: one pending invitation per invited player (from anyone), a
refused invitation not repeated for the same game (by anyone), an invitation that lapses after
LIFETIME or when its table is no longer open."""

from datetime import datetime, timedelta

from pydantic import BaseModel

LIFETIME = timedelta(minutes=10)


class Invitation(BaseModel):
    invitation_id: str
    game_id: str
    inviter: str
    inviter_nickname: str
    invitee: str
    invitee_nickname: str
    sent_at: datetime
    expires_at: datetime

    def pending(self, now: datetime) -> bool:
        return now < self.expires_at
