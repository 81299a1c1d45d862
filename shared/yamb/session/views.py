"""What clients see of a game: the protocol's GameView built from a stored session."""

from collections.abc import Sequence
from dataclasses import asdict

from yamb import fair_dice
from yamb.game import Game
from yamb.protocol import (
    ColumnTotalsView,
    DiceRecordFrame,
    FairnessView,
    GameSummary,
    GameView,
    LegalCellView,
    MismatchView,
    SeatView,
    SheetView,
    TurnView,
)
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession


def _cell_view(game: Game, column: int, row: int, score: int) -> LegalCellView:
    layout = game.layout
    return LegalCellView(
        column=layout.columns[column].id, row=layout.grid.rows[row].id, score=score
    )


def _sheets(game: Game) -> list[SheetView]:
    layout = game.layout
    views = []
    for player_id, sheet in zip(game.players, game.sheets, strict=True):
        cells = {
            column.id: {
                layout.grid.rows[r].id: value
                for r, value in enumerate(sheet.values[c])
                if value is not None
            }
            for c, column in enumerate(layout.columns)
        }
        totals = {
            column.id: ColumnTotalsView(**sheet.column_totals(c).as_dict())
            for c, column in enumerate(layout.columns)
        }
        views.append(
            SheetView(
                player_id=player_id,
                cells=cells,
                totals=totals,
                total=sum(t.total for t in totals.values()),
            )
        )
    return views


def _turn(session: GameSession, game: Game) -> TurnView | None:
    """The turn being played; None when none is (nor is one until the finish offer's answer)."""
    if game.finished or session.finish_offer is not None:
        return None
    if not game.roll:
        if not session.settings.physical_dice:
            return None
        # A scorekeeping turn before its first typed roll: whose dice the table waits for.
        return TurnView(
            number=session.turn,
            player_id=game.players[game.seat],
            roll=0,
            dice=[],
            legal=[],
            can_roll=True,
        )
    layout = game.layout
    legal = game.legal_cells()
    scores = {(c, r): s for c, r, s in legal}
    announcement = None
    if game.announcement is not None:
        column, row = game.announcement
        announcement = _cell_view(game, column, row, scores.get((column, row), 0))
    pending = None
    if session.pending is not None and session.pending in scores:
        pending = _cell_view(game, *session.pending, scores[session.pending])
    obligation = game.obligations[game.seat]
    return TurnView(
        number=session.turn,
        player_id=game.players[game.seat],
        roll=game.roll,
        dice=list(game.dice),
        locks=list(session.locks),
        announcement=announcement,
        directed_row=None if obligation is None else layout.grid.rows[obligation].id,
        pending=pending,
        legal=[_cell_view(game, c, r, s) for c, r, s in legal],
        can_roll=game.can_reroll(),
        deadline=session.clock.deadline,
        frozen_ms=session.clock.frozen_ms,
    )


def game_view(session: GameSession) -> GameView:
    game = session.game() if session.engine is not None else None
    return GameView(
        game_id=session.game_id,
        version=session.version,
        status=session.status,
        creator=session.creator,
        settings=session.settings,
        seats=[
            SeatView(
                player_id=seat.player_id,
                present=seat.present,
                left=seat.left,
                return_deadline=seat.return_deadline,
                decision_ms=seat.decision_ms if session.settings.time_bonus else None,
            )
            for seat in session.seats
        ],
        sheets=_sheets(game) if game is not None else [],
        turn=_turn(session, game) if game is not None and session.status == "running" else None,
        winners=session.winners,
        outcome=session.outcome,
        finish_offer=session.finish_offer,
        fairness=_fairness(session),
    )


def _fairness(session: GameSession) -> FairnessView | None:
    fair = session.fair
    if fair is None:
        return None
    return FairnessView(
        scheme=fair_dice.SCHEME,
        commitment=fair.commitment,
        client_seeds=dict(fair.client_seeds),
        # The seed decides every die still to come: it is shown only when none is.
        seed=fair.server_seed if not session.in_play else None,
    )


def dice_record(
    session: GameSession, request_id: str, archived: Sequence[str] = ()
) -> DiceRecordFrame:
    """The answer to `verify`, for an ended game only (the seed decides the dice to come);
    `archived`: the turns of the record stored apart from the game, oldest first."""
    fair = session.fair
    if session.in_play:
        raise GameActionError("the dice are verified once the game has ended", code="wrong_status")
    if fair is None:
        raise GameActionError("this game was played before verifiable dice", code="not_allowed")
    count = session.settings.dice
    lines = [*archived, *fair.turns]
    if len(lines) != session.turn:  # chunks lost (expired): a partial record proves nothing
        raise GameActionError(
            f"the dice record is no longer whole: {len(lines)} of {session.turn} turns are kept",
            code="not_allowed",
        )
    turns = [fair_dice.parse_turn(text) for text in lines]
    mismatch = fair_dice.first_mismatch(fair.key(session.game_id), turns, count)
    return DiceRecordFrame(
        request_id=request_id,
        game_id=session.game_id,
        scheme=fair_dice.SCHEME,
        dice_count=count,
        same_dice=session.settings.same_dice,
        seed=fair.server_seed,
        commitment=fair.commitment,
        client_seeds=dict(fair.client_seeds),
        seed_matches_commitment=fair_dice.seed_matches(fair.server_seed, fair.commitment),
        turns=lines,
        mismatch=None if mismatch is None else MismatchView(**asdict(mismatch)),
    )


def game_summary(session: GameSession) -> GameSummary:
    status = session.status
    if status not in ("waiting", "running"):
        raise ValueError("only waiting and running games are listed")
    return GameSummary(
        game_id=session.game_id,
        status=status,
        creator=session.creator,
        players=session.player_ids,
        seats=session.settings.players,
        grid=session.settings.grid,
        columns=list(session.settings.column_ids),
        created_at=session.created_at,
    )
