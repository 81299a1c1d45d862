"""Which pushes a player gets (A8) and what they say: each kind belongs to one of the in-app
groups of the account's switches; a push goes only while its group is on."""

from yamb.accounts.preferences import Preferences
from yamb.i18n import DEFAULT_LANGUAGE, Language, Plural, Text, render
from yamb.push.messages import Notification, PushKind, PushRequest

# The in-app group (yamb.accounts.preferences.InAppNotifications) of each kind.
GROUPS = {
    PushKind.YOUR_TURN: "system",
    PushKind.RETURN_COUNTDOWN: "system",
    PushKind.PRIZE_PAID: "rewards",
}


def may_push(preferences: Preferences, kind: PushKind) -> bool:
    return bool(getattr(preferences.notifications.in_app, GROUPS[kind]))


def notification(
    request: PushRequest, web_base_url: str, language: Language = DEFAULT_LANGUAGE
) -> Notification:
    """The words a phone shows, in the recipient's `language` (their account's setting: a push
    is drawn by the phone, not by the page, so the server says it in their words), and where a
    click leads."""
    base = web_base_url.rstrip("/")
    game = request.game_id or ""
    match request.kind:
        case PushKind.YOUR_TURN:
            return Notification(
                title=render(Text("Your turn"), language),
                body=render(Text("Your slow game is waiting for your turn."), language),
                url=f"{base}/#/game/{game}",
                tag=f"game-{game}",
            )
        case PushKind.RETURN_COUNTDOWN:
            return Notification(
                title=render(Text("Come back to your game"), language),
                body=render(
                    Text("Your connection was lost: return within 3 minutes to keep your seat."),
                    language,
                ),
                url=f"{base}/#/game/{game}",
                tag=f"game-{game}",
            )
        case PushKind.PRIZE_PAID:
            return Notification(
                title=render(Text("Prize paid"), language),
                body=render(
                    Plural(
                        "A leaderboard prize of {count} token is in your wallet.",
                        "A leaderboard prize of {count} tokens is in your wallet.",
                        request.tokens or 0,
                    ),
                    language,
                ),
                url=f"{base}/#/wallet",
                tag=f"prize-{request.board or ''}",
            )
