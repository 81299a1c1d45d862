"""A replay in frames (product G8), each turn with its regret (yamb.session.regret) where the
grid has an optimal player. Apart from yamb.session.replays because regret loads the solver
(numpy and a table): only the function that answers `replay` takes it, the others that read a
game's record (its header) do not."""

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
    try:
        regrets = regret.turn_regrets(header.settings, header.players, lines)
    except (KeyError, ValueError):  # the solver and the record disagree: the replay stands
        regrets = None
    totals = None if regrets is None else dict(regret.totals(header.players, lines, regrets))
    luck = None
    if totals is not None:
        try:
            luck = regret.luck(header.settings, header.players, lines, totals)
        except (KeyError, ValueError):  # the record does not rebuild: the replay stands
            luck = None
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
                expected=None if luck is None else luck.expected,
                luck=None if luck is None else dict(luck.luck),
            )
        )
        first += len(turns)
    return frames
