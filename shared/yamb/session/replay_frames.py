"""A replay in frames (product G8), each turn with its regret (yamb.session.regret) where the
grid has an optimal player, or on Yamb against the hard bot's choices. Apart from
yamb.session.replays because regret loads the solver or the bots (numpy): only the functions
that answer `replay` or end a game take it, the others that read a game's record do not."""

from collections.abc import Sequence

from yamb.i18n import Text
from yamb.protocol import ReplayFrame, ReplayTurnView
from yamb.session import regret
from yamb.session.effects import GameActionError
from yamb.session.replays import ReplayHeader, replay_turns

# What a replay frame's turns may take: API Gateway's limit is 32 KB a frame, and the rest of
# the frame (settings, players) stays under 2 KB.
TURNS_BYTES_PER_FRAME = 28_000


def replay_frames(
    header: ReplayHeader,
    lines: Sequence[str],
    request_id: str,
    nicknames: Sequence[str | None] | None = None,
) -> list[ReplayFrame]:
    """The replay of an ended game in frames that each stay under 32 KB, however long it was;
    `nicknames` are the seats' names, in the order of `header.players`, while the game item
    keeps them."""
    if len(lines) != header.turns:
        raise GameActionError(
            Text(
                "the game's record is no longer whole: {count} of {turns} turns are kept",
                count=len(lines),
                turns=header.turns,
            ),
            code="not_allowed",
        )
    measured = regret.measure(header.settings, header.players, lines)
    regrets = None if measured is None else measured.regrets
    totals = None if measured is None else dict(measured.totals)
    luck = None if measured is None else measured.luck
    parts: list[list[ReplayTurnView]] = [[]]
    size = 0
    for turn in replay_turns(header, lines, regrets):
        turn_bytes = len(turn.model_dump_json(by_alias=True)) + 1
        if parts[-1] and size + turn_bytes > TURNS_BYTES_PER_FRAME:
            parts.append([])
            size = 0
        parts[-1].append(turn)
        size += turn_bytes
    frames = []
    first = 1
    for index, turns in enumerate(parts, start=1):
        frames.append(
            ReplayFrame(
                request_id=request_id,
                game_id=header.game_id,
                part=index,
                parts=len(parts),
                total=len(lines),
                first=first,
                settings=header.settings,
                players=header.players,
                nicknames=None if nicknames is None else list(nicknames),
                winners=header.winners,
                outcome=header.outcome,
                turns=turns,
                regret=totals,
                against=None if measured is None else measured.against,
                expected=None if luck is None else luck.expected,
                expected_by=None
                if luck is None or luck.expected_by is None
                else dict(luck.expected_by),
                luck=None if luck is None else dict(luck.luck),
            )
        )
        first += len(turns)
    return frames
