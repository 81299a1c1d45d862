"""Domain errors: each carries a stable code for clients and a sentence for people.

`ErrorCode` is the catalog: every refusal the server sends names one of these codes, and the
protocol document lists them (docs/asyncapi.yaml), so a client can rely on them.
"""

from typing import Literal

from yamb.i18n import Plural, Text

type ErrorCode = Literal[
    # The frame itself (yamb_service.edge.websocket)
    "bad_request",
    "unknown_action",
    "frame_too_large",
    "request_reused",
    "slow_down",
    "busy",
    "session_expired",
    "internal",
    # Games and seats
    "game_not_found",
    "conflict",
    "wrong_status",
    "not_creator",
    "not_seated",
    "already_seated",
    "already_in_game",
    "seat_taken",
    "cooldown",
    "table_full",
    "table_not_full",
    "too_many",
    "bad_player_order",
    "full",
    "invalid_settings",
    "not_allowed",
    # Turns
    "not_your_turn",
    "turn_over",
    "wrong_turn",
    "paused",
    "not_paused",
    "pause_used",
    "finish_offer",
    "no_finish_offer",
    "illegal_move",
    "bad_dice",
    "bad_keep",
    "turn_started",
    "turn_not_started",
    "game_over",
    "no_rolls_left",
    "already_rolled",
    "reroll_refused",
    "unknown_cell",
    "cell_written",
    "announced_elsewhere",
    "directed_elsewhere",
    "joker_rule",
    "manual_rule",
    "needs_announcement",
    "not_directed",
    "column_order",
    "bad_announcement",
    # Game types (rules.md 7)
    "sheet_full",
    "round_not_over",
    "wrong_game_type",
    "dice_hidden",
    "unknown_player",
    "slow_games_limit",
    "premium_required",
    "dice_locked",
    # The players' seeds (yamb.session.seeds)
    "seed_retired",
    "too_early",
    "no_commitment",
    "seed_mismatch",
    "reveals_closed",
    "awaiting_seeds",
    # A duplicate tournament's deal, kept until the tournament is over (yamb.session.deals)
    "deal_in_play",
    # Scorekeeping for real dice
    "type_the_dice",
    "correction_refused",
    # Bots (yamb.bots)
    "unknown_level",
    "level_not_for_grid",
    "level_unavailable",
    "bots_not_allowed",
    "not_a_bot",
    "hint_not_allowed",
    "hint_not_now",
    # The game chat (yamb.chat)
    "chat_empty",
    "chat_too_long",
    "chat_indecent",
    "chat_too_fast",
    # Social (docs/social.md)
    "message_self",
    "blocked",
    "conversation_not_found",
    "general_chat_full",
    "invite_self",
    "invitation_pending",
    "invitation_refused_before",
    "invitation_not_found",
    # Clubs (yamb_service.clubs.chat)
    "not_a_club_member",
    # Fair play (yamb.session.fairplay)
    "fairplay_check",
    "fairplay_check_not_found",
    "tournament_table",
]


class YambError(Exception):
    code: ErrorCode = "not_allowed"
    # The fields of the action the refusal is about, as the client named them (camelCase);
    # () when it is about the action as a whole.
    fields: tuple[str, ...] = ()

    def __init__(self, message: Text | Plural | str, *, code: ErrorCode | None = None) -> None:
        super().__init__(str(message))
        # `text`: the sentence, rendered in the reader's language where the refusal becomes a
        # frame or a reply (docs/languages.md); `message`: its English (logs, tools, tests).
        self.text = message
        self.message = str(message)
        if code is not None:
            self.code = code


class IllegalMoveError(YambError):
    """The move breaks a game rule; the game state is unchanged."""

    code: ErrorCode = "illegal_move"


class InvalidSettingsError(YambError):
    """Settings refused; `problems` names the settings each problem involves."""

    code: ErrorCode = "invalid_settings"

    def __init__(self, problems: list[tuple[tuple[str, ...], Text | Plural | str]]) -> None:
        self.problems = problems
        super().__init__(joined([message for _, message in problems]))
        named = (_camel(name) for names, _ in problems for name in names)
        self.fields = tuple(dict.fromkeys(named))


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def joined(messages: list[Text | Plural | str]) -> Text | Plural | str:
    """Several problems said as one message: each a sentence of its own, rendered in the
    reader's language, joined by "; " (no word between them to translate)."""
    if len(messages) <= 1:
        return messages[0] if messages else ""
    return Text("{first}; {rest}", first=messages[0], rest=joined(messages[1:]))
