"""Which pushes a player gets (A8) and what they say: each kind belongs to one of the in-app
groups of the account's switches; a push goes only while its group is on."""

from yamb.accounts.preferences import Preferences
from yamb.push.messages import Notification, PushKind, PushRequest

# The in-app group (yamb.accounts.preferences.InAppNotifications) of each kind.
GROUPS = {
    PushKind.YOUR_TURN: "system",
    PushKind.RETURN_COUNTDOWN: "system",
    PushKind.PRIZE_PAID: "rewards",
}


def may_push(preferences: Preferences, kind: PushKind) -> bool:
    return bool(getattr(preferences.notifications.in_app, GROUPS[kind]))


def notification(request: PushRequest, web_base_url: str) -> Notification:
    """The words a phone shows (English: the page translates what it draws, a push is drawn by
    the phone), and where a click leads."""
    base = web_base_url.rstrip("/")
    game = request.game_id or ""
    match request.kind:
        case PushKind.YOUR_TURN:
            return Notification(
                title="Your turn",
                body="Your slow game is waiting for your turn.",
                url=f"{base}/#/game/{game}",
                tag=f"game-{game}",
            )
        case PushKind.RETURN_COUNTDOWN:
            return Notification(
                title="Come back to your game",
                body="Your connection was lost: return within 3 minutes to keep your seat.",
                url=f"{base}/#/game/{game}",
                tag=f"game-{game}",
            )
        case PushKind.PRIZE_PAID:
            return Notification(
                title="Prize paid",
                body=f"A leaderboard prize of {request.tokens or 0} tokens is in your wallet.",
                url=f"{base}/#/wallet",
                tag=f"prize-{request.board or ''}",
            )
