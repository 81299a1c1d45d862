"""What clients see of a game: the protocol's GameView built from a stored session."""

from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime

from yamb import fair_dice
from yamb.competition.pools import table_pool
from yamb.game import Game
from yamb.i18n import Text
from yamb.protocol import (
    ColumnTotalsView,
    DiceRecordFrame,
    FairnessView,
    GameSummary,
    GameView,
    LegalCellView,
    MismatchView,
    RollView,
    SeatView,
    SheetView,
    TurnView,
)
from yamb.session import clock, seeds, team_turns
from yamb.session.effects import GameActionError
from yamb.session.endings import FINISHED_SHARE_NEEDED
from yamb.session.model import GameSession, PairsTurn
from yamb.session.turns import round_waits_for


def _cell_view(game: Game, column: int, row: int, score: int) -> LegalCellView:
    layout = game.layout
    return LegalCellView(
        column=layout.columns[column].id, row=layout.grid.rows[row].id, score=score
    )


def _sheets(session: GameSession, game: Game) -> list[SheetView]:
    layout = game.layout
    views = []
    for index, (player_id, sheet) in enumerate(zip(game.players, game.sheets, strict=True)):
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
        owner = session.seat_of(player_id)  # in 2 vs 2 the team's first player
        looks = session.seats[owner].looks if owner is not None else None
        views.append(
            SheetView(
                player_id=player_id,
                members=session.player_ids[2 * index : 2 * index + 2]
                if session.settings.pairs
                else None,
                cells=cells,
                totals=totals,
                total=sum(t.total for t in totals.values()),
                skin=None if looks is None else looks.sheet_skin,
                column_effect=None if looks is None else looks.column_effect,
            )
        )
    return views


def _turn(session: GameSession, game: Game, shows: str | None) -> TurnView | None:
    """The turn being played (in a game of own turns: that of the player `shows`, if any); None
    when none is (nor is one until the finish offer's answer)."""
    if game.finished or session.finish_offer is not None:
        return None
    if session.own_turns:
        seat = session.seat_of(shows) if shows is not None else None
        if seat is None or not game.turn_of(seat)[0]:
            return None
        game.focus(seat)
    seat = session.seat_in_turn(game)
    player_id = session.seats[seat].player_id
    looks = session.seats[seat].looks
    dice_skin = None if looks is None else looks.dice_skin
    if not game.roll:
        if not session.settings.physical_dice:
            return None
        # A scorekeeping turn before its first typed roll: whose dice the table waits for.
        return TurnView(
            number=session.turn,
            player_id=player_id,
            roll=0,
            dice=[],
            dice_skin=dice_skin,
            legal=[],
            can_roll=True,
        )
    layout = game.layout
    slot = session.slot(seat)
    pairs = session.pairs if session.settings.pairs else None
    legal = team_turns.choices(session, game) if pairs is not None else game.legal_cells()
    scores = {(c, r): s for c, r, s in legal}
    announcement = None
    if game.announcement is not None:
        column, row = game.announcement
        announcement = _cell_view(game, column, row, scores.get((column, row), 0))
    pending = None
    if slot.pending is not None and slot.pending in scores:
        pending = _cell_view(game, *slot.pending, scores[slot.pending])
    obligation = game.obligations[game.seat]
    return TurnView(
        number=clock.turn_number(session, seat),
        player_id=player_id,
        roll=game.roll,
        dice=list(game.dice),
        dice_skin=dice_skin,
        locks=list(slot.locks),
        announcement=announcement,
        directed_row=None if obligation is None else layout.grid.rows[obligation].id,
        pending=pending,
        legal=[_cell_view(game, c, r, s) for c, r, s in legal],
        can_roll=game.can_reroll() and not (pairs is not None and pairs.grace),
        deadline=slot.clock.deadline,
        frozen_ms=slot.clock.frozen_ms,
        rolls=_roll_history(session, seat),
        part=None if pairs is None else pairs.part,
        proposal=None if pairs is None else _proposal(session, game, pairs),
        opened=[] if pairs is None else [_cell_view(game, c, r, 0) for c, r, _ in pairs.opened],
        grace=None if pairs is None else pairs.grace,
    )


def _proposal(session: GameSession, game: Game, pairs: PairsTurn) -> LegalCellView | None:
    """The first player's proposal, at the value they proposed."""
    if pairs.proposal is None:
        return None
    return _cell_view(game, *pairs.proposal)


def _roll_history(session: GameSession, seat: int) -> list[RollView]:
    """The rolls of the seat's turn under way, from the game's record."""
    fair = session.fair
    if fair is None:
        return []
    if session.own_turns:
        own = session.seats[seat].own
        line = None if own is None else own.dice_line
    else:
        line = fair.turns[-1] if fair.turns else None
    if line is None:
        return []
    recorded = fair_dice.parse_turn(line)
    if recorded.seat != seat:
        return []
    return [RollView(dice=list(roll.dice), kept=list(roll.kept)) for roll in recorded.rolls]


def game_view(session: GameSession, shows: str | None = None) -> GameView:
    """The game as one recipient sees it. Turn by turn everyone sees the turn being played; in
    a game of own turns each player sees only their own (rules.md 7) and a spectator the turn
    of the player they follow: `shows` names that player (None: no turn is shown)."""
    game = session.game() if session.engine is not None else None
    own = session.own_turns and game is not None
    return GameView(
        game_id=session.game_id,
        version=session.version,
        status=session.status,
        creator=session.creator,
        settings=session.settings,
        seats=[
            SeatView(
                player_id=seat.player_id,
                nickname=seat.nickname,
                frame=None if seat.looks is None else seat.looks.frame,
                avatar=True if seat.looks is not None and seat.looks.avatar else None,
                club=None if seat.looks is None else seat.looks.club,
                bot=seat.bot,
                present=seat.present,
                left=seat.left,
                paused=True if seat.paused else None,
                return_deadline=seat.return_deadline,
                decision_ms=seat.decision_ms if session.settings.time_bonus else None,
                turns_played=game.turns_played[session.engine_seat(index)]
                if game is not None
                else 0,
                in_turn=bool(game.turn_of(index)[0]) if own and game is not None else None,
                turn_deadline=_own_deadline(session, index) if own else None,
            )
            for index, seat in enumerate(session.seats)
        ],
        turns_per_sheet=game.layout.cells_per_sheet if game is not None else None,
        waiting_for=round_waits_for(session, game) if game is not None else [],
        slow_deadline=session.slow_deadline,
        sheets=_sheets(session, game) if game is not None else [],
        turn=_turn(session, game, shows)
        if game is not None and session.status == "running"
        else None,
        winners=session.winners,
        outcome=session.outcome,
        finish_offer=session.finish_offer,
        finish_counts=_finish_counts(session, game),
        fairness=fairness_of(session),
    )


def _finish_counts(session: GameSession, game: Game | None) -> bool | None:
    """With a finish offer: whether the offered player's win can still be recorded."""
    if session.finish_offer is None or game is None or session.offered_turns is None:
        return None
    return session.offered_turns >= FINISHED_SHARE_NEEDED * game.layout.cells_per_sheet


def _own_deadline(session: GameSession, seat: int) -> datetime | None:
    """When a seat's own turn clock runs out: public, like the clock beside a name."""
    own = session.seats[seat].own
    return None if own is None else own.clock.deadline


def fairness_of(session: GameSession, *, deal_over: bool = False) -> FairnessView | None:
    """What makes the game's dice verifiable, as every frame and the public page show it.
    `deal_over`: a duplicate tournament's game (`fair.deal`) shows its seed only when its
    tournament is known to be over (yamb.session.deals): never in a frame."""
    fair = session.fair
    if fair is None:
        return None
    return FairnessView(
        scheme=fair.scheme,
        commitment=fair.commitment,
        client_seeds=dict(fair.client_seeds),
        # The seed decides every die still to come: it is shown only when none is, in this
        # game and, for a deal, in every other entrant's.
        seed=(
            fair.server_seed if not session.in_play and (fair.deal is None or deal_over) else None
        ),
        takes_seeds=seeds.takes_seeds(session),
        commitments=dict(fair.commitments),
        reveal_by=fair.reveal_by,
        # Who has revealed, never what: a seed shown before the reveals close would let the
        # last to reveal (or withhold) know the others' seeds when choosing.
        revealed=sorted(fair.reveals),
        withheld=list(fair.withheld),
        deal=fair.deal,
    )


def dice_record(
    session: GameSession, request_id: str, archived: Sequence[str] = ()
) -> DiceRecordFrame:
    """The answer to `verify`, for an ended game only (the seed decides the dice to come);
    `archived`: the turns of the record stored apart from the game, oldest first."""
    fair = session.fair
    if session.in_play:
        raise GameActionError(
            Text("the dice are verified once the game has ended"), code="wrong_status"
        )
    if fair is None:
        raise GameActionError(
            Text("this game was played before verifiable dice"), code="not_allowed"
        )
    count = session.settings.dice
    lines = [fair_dice.dice_part(line) for line in [*archived, *fair.turns]]
    if len(lines) != session.turn:  # chunks lost (expired): a partial record proves nothing
        raise GameActionError(
            Text(
                "the dice record is no longer whole: {count} of {turn} turns are kept",
                count=len(lines),
                turn=session.turn,
            ),
            code="not_allowed",
        )
    turns = [fair_dice.parse_turn(text) for text in lines]
    seats = fair_dice.binds_seats(fair.scheme, session.settings.same_dice)
    mismatch = fair_dice.first_mismatch(fair.key(session.game_id), turns, count, seats=seats)
    return DiceRecordFrame(
        request_id=request_id,
        game_id=session.game_id,
        scheme=fair.scheme,
        dice_count=count,
        same_dice=session.settings.same_dice,
        seed=fair.server_seed,
        commitment=fair.commitment,
        client_seeds=dict(fair.client_seeds),
        commitments=dict(fair.commitments),
        withheld=list(fair.withheld),
        seed_matches_commitment=fair_dice.seed_matches(fair.server_seed, fair.commitment),
        deal=fair.deal,
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
        nicknames=[seat.nickname for seat in session.seats],
        bots=[seat.player_id for seat in session.seats if seat.bot is not None],
        seats=session.settings.players,
        grid=session.settings.grid,
        columns=list(session.settings.column_ids),
        created_at=session.created_at,
        pool=table_pool(session.settings),
    )
