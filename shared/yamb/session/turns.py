"""A turn (rules.md 1, 4, 8): the server's roll 1, locks, rolls 2 and 3, the announcement, the
pending choice, the write, and the auto-move when the clock runs out."""

from datetime import datetime, timedelta
from typing import Literal

from yamb import fair_dice
from yamb.dice import DiceSource, roll_all, roll_unlocked
from yamb.errors import IllegalMoveError
from yamb.game import Game
from yamb.i18n import Plural, Text
from yamb.session import clock, decisions, fairplay, replays, scorekeeping, team_turns
from yamb.session.effects import Effects, GameActionError, require_status
from yamb.session.endings import finish
from yamb.session.model import GameSession, OwnTurn

# A deadline this close is met when a timer wakes the game: a wake a moment early still ends the
# turn it was started for. Before a player's own action no tolerance applies.
DUE_TOLERANCE = timedelta(milliseconds=500)


def begin_turn(
    session: GameSession, game: Game, now: datetime, dice: DiceSource, seat: int | None = None
) -> None:
    """The server's roll 1 and the clock of a new turn: the seat in turn's, or in a game of own
    turns the turn of `seat`."""
    if seat is None:
        seat = session.seat_in_turn(game)
    else:
        game.focus(seat)
    count = game.layout.dice_count
    fair = session.fair
    slot = session.slot(seat)
    if session.settings.physical_dice:
        pass  # the player rolls at the table and types the dice (scorekeeping.enter_dice)
    elif fair is None:
        game.start_turn(roll_all(dice, count))
    else:
        # Same dice: a player's own k-th turn; else the table's turn number.
        label = game.turns_played[seat] + 1 if session.settings.same_dice else session.turn + 1
        bound = fair.seat_of_dice(seat, session.settings.same_dice)
        rolled = fair_dice.roll_dice(fair.key(session.game_id), label, 1, (), (), count, bound)
        game.start_turn(rolled)
        _record(session, seat, fair.first_roll(seat, label, rolled), first=True)
    session.turn += 1
    slot.pending = None
    slot.locks = []
    slot.announced_after = None
    if isinstance(slot, OwnTurn):
        slot.number = game.turns_played[seat] + 1
    # A turn that ended without a write (its player resigned or was given up) leaves nothing.
    session.typed_rolls, session.typed_announcement = [], None
    slot.decision_from = None
    clock.start_full(session, seat, now)
    decisions.start(session, seat, now)
    fairplay.shown(session, seat, now)


def _record(session: GameSession, seat: int, line: str, *, first: bool = False) -> None:
    """The dice record of the turn under way, as it grows roll by roll."""
    fair = session.fair
    assert fair is not None
    if not session.own_turns:
        if first:
            fair.turns.append(line)
        else:
            fair.turns[-1] = line
        return
    own = session.seats[seat].own
    assert own is not None
    own.dice_line = line


def _record_moves(
    session: GameSession,
    seat: int,
    announced: tuple[int, int] | None,
    cell: tuple[int, int],
    score: int,
    *,
    auto: bool,
    proposal: bool = False,
) -> None:
    """The turn's announcement and write (or proposal) join its record, after its dice."""
    fair = session.fair
    if fair is None:
        return  # a scorekeeping table: its history is the record
    after = session.slot(seat).announced_after or 1
    moves = replays.moves(announced, after, cell, score, auto=auto, proposal=proposal)
    _record(session, seat, _line_under_way(session, seat) + moves)


def _team_write(
    session: GameSession,
    game: Game,
    cell: tuple[int, int],
    now: datetime,
    dice: DiceSource,
    *,
    auto: bool,
    as_is: bool = False,
) -> Effects:
    """2 vs 2: the first player's write is the proposal and the partner's part begins; the
    partner's is the team's (`as_is`: the proposal, written as it is when their time is up)."""
    turn = team_turns.team(session)
    seat = session.seat_in_turn(game)
    announced = next(((c, r) for c, r, part in turn.opened if part == turn.part), None)
    if turn.part == 1:
        value = team_turns.propose(game, session, *cell)
        _record_moves(session, seat, announced, cell, value, auto=auto, proposal=True)
        team_turns.start_partner_part(session, game)
        begin_turn(session, game, now, dice)
        session.store(game)
        return Effects()
    if as_is and turn.proposal is not None:
        cell, value = turn.proposal[:2], game.write_value(*turn.proposal).score
    else:
        value = team_turns.final_write(session, game, *cell)
    _record_moves(session, seat, announced, cell, value, auto=auto)
    team_turns.next_team_turn(session)
    return after_write(session, game, now, dice)


def _line_under_way(session: GameSession, seat: int) -> str:
    fair = session.fair
    assert fair is not None
    if not session.own_turns:
        return fair.turns[-1]
    own = session.seats[seat].own
    assert own is not None and own.dice_line is not None
    return own.dice_line


def after_write(
    session: GameSession, game: Game, now: datetime, dice: DiceSource, seat: int | None = None
) -> Effects:
    """The turn of `seat` (the seat in turn, by default) was written: the next turn, or the end."""
    effects = Effects()
    written = game.seat if seat is None else seat
    if session.own_turns:
        session.close_own_turn(written)
        if not game.sheets[written].empty_cells:
            session.seats[written].return_deadline = None  # filled by the clock while away
    if game.finished:
        finish(session, game, now, "completed", effects)
    elif session.own_turns:
        next_own_turns(session, game, now, dice)
    else:
        begin_turn(session, game, now, dice)
    session.store(game)
    return effects


def next_own_turns(session: GameSession, game: Game, now: datetime, dice: DiceSource) -> None:
    """Starts the own turns that may start now: each for themself and slow, every seat's next
    turn at once; simultaneous, the next round once every seat still playing has played this
    one (rules.md 7)."""
    playing = [
        seat
        for seat in session.remaining_seats()
        if game.sheets[seat].empty_cells and not game.turn_of(seat)[0]
    ]
    if session.settings.turn_type == "simultaneous":
        remaining = session.remaining_seats()
        if any(game.turn_of(seat)[0] for seat in remaining):
            return  # the round is still being played
        played = {game.turns_played[seat] for seat in remaining if game.sheets[seat].empty_cells}
        if len(played) > 1:  # pragma: no cover - a round starts for every seat at once
            playing = [s for s in playing if game.turns_played[s] == min(played)]
    for seat in playing:
        begin_turn(session, game, now, dice, seat)


def round_waits_for(session: GameSession, game: Game) -> list[str]:
    """Simultaneous: the players the table waits for to end the round (rules.md 7)."""
    if session.settings.turn_type != "simultaneous" or session.status != "running":
        return []
    return [game.players[seat] for seat in session.remaining_seats() if game.turn_of(seat)[0]]


def current(session: GameSession, player_id: str, turn: int | None = None) -> Game:
    """The game, focused on the player's turn, if `player_id` is the one to move now (in turn
    `turn`, when it is named)."""
    require_status(session, "running")
    if session.finish_offer is not None:
        raise GameActionError(
            Text("waiting for the answer to the finish offer"), code="finish_offer"
        )
    refuse_while_seeds_awaited(session)
    seat = session.seat_of(player_id)
    if seat is None or session.seats[seat].left:
        raise GameActionError(Text("you do not play in this game"), code="not_seated")
    if session.seats[seat].paused:
        raise GameActionError(Text("your turn is paused: resume it to play on"), code="paused")
    game = session.game()
    if session.own_turns:
        return _own_turn(session, game, seat, turn)
    if turn is not None and turn != session.turn:
        refuse_turn(turn, session.turn, "")
    # At a scorekeeping table the creator types for whoever is in turn.
    host = session.settings.physical_dice and player_id == session.creator
    if seat != session.seat_in_turn(game) and not host:
        raise GameActionError(Text("it is not your turn"), code="not_your_turn")
    return game


def refuse_while_seeds_awaited(session: GameSession) -> None:
    """The first roll waits for the players' committed seeds (yamb.session.seeds)."""
    if session.awaiting_seeds:
        raise GameActionError(
            Text("the first roll waits for the players' seeds: a few seconds"),
            code="awaiting_seeds",
        )


def refuse_turn(named: int, playing: int, whose: Literal["your ", ""]) -> None:
    """An action named for a turn other than the one being played: one that has ended is
    `turn_over`; one for a turn still to come (a client that counted wrong) is `wrong_turn`,
    never "turn 6 is over" during turn 1."""
    own = whose == "your "
    if named < playing:
        over = (
            Text(
                "your turn {named} is over; your turn {playing} is being played",
                named=named,
                playing=playing,
            )
            if own
            else Text(
                "turn {named} is over; turn {playing} is being played", named=named, playing=playing
            )
        )
        raise GameActionError(over, code="turn_over")
    early = (
        Text(
            "your turn {named} has not started: it is your turn {playing}",
            named=named,
            playing=playing,
        )
        if own
        else Text(
            "turn {named} has not started: it is turn {playing}", named=named, playing=playing
        )
    )
    raise GameActionError(early, code="wrong_turn")


def _own_turn(session: GameSession, game: Game, seat: int, turn: int | None) -> Game:
    number = clock.turn_number(session, seat)
    if not game.turn_of(seat)[0]:
        if not game.sheets[seat].empty_cells:
            raise GameActionError(
                Text("your sheet is full: the game ends when everyone has finished"),
                code="sheet_full",
            )
        waiting = round_waits_for(session, game)
        raise GameActionError(
            Plural(
                "the next round starts when {players} has played this one",
                "the next round starts when {players} have played this one",
                len(waiting),
                players=", ".join(waiting),
            ),
            code="round_not_over",
        )
    if turn is not None and turn != number:
        refuse_turn(turn, number, "your ")
    game.focus(seat)
    return game


def _check_locks(game: Game, keep: list[int]) -> list[int]:
    count = game.layout.dice_count
    if any(not 0 <= position < count for position in keep):
        raise IllegalMoveError(
            Text("locked positions must be from 0 to {count}", count=count - 1), code="bad_keep"
        )
    if len(set(keep)) != len(keep):
        raise IllegalMoveError(Text("a die is locked once"), code="bad_keep")
    return sorted(keep)


def lock(session: GameSession, player_id: str, keep: list[int], turn: int | None) -> None:
    """The dice the player holds back from the next roll; everyone sees them."""
    game = current(session, player_id, turn)
    team_turns.refuse_roll_in_grace(session)
    if not game.can_reroll():
        raise IllegalMoveError(Text("no roll is left to lock dice for"), code="no_rolls_left")
    session.slot(session.seat_in_turn(game)).locks = _check_locks(game, keep)


def roll(
    session: GameSession,
    player_id: str,
    keep: list[int] | None,
    turn: int | None,
    dice: DiceSource,
    *,
    seen: int | None = None,
    now: datetime | None = None,
) -> None:
    """Rolls the unlocked dice: `keep` replaces the locks when given, else the locks stand.
    `seen`: the rolls made as the client saw them; a roll asked for at an older count (the
    second click of a double click) is refused, not rolled."""
    game = current(session, player_id, turn)
    if seen is not None and seen != game.roll:
        raise GameActionError(
            Text(
                "this roll was asked for after roll {seen}, but roll {roll} has been made since: "
                "one click rolls once",
                seen=seen,
                roll=game.roll,
            ),
            code="already_rolled",
        )
    if scorekeeping.is_scorekeeping(session):
        raise GameActionError(
            Text(
                "at a scorekeeping table the dice are rolled at the table: type them (enter_dice)"
            ),
            code="type_the_dice",
        )
    team_turns.refuse_roll_in_grace(session)
    seat = session.seat_in_turn(game)
    slot = session.slot(seat)
    locks = slot.locks if keep is None else _check_locks(game, keep)
    fair = session.fair
    if fair is None:
        game.reroll(roll_unlocked(dice, game.dice, locks))
    else:
        key = fair.key(session.game_id)
        count = game.layout.dice_count
        line = _line_under_way(session, game.seat)
        # The seat the turn's line records (the checker reads that one for every roll).
        bound = fair.seat_of_dice(fair_dice.parse_turn(line).seat, session.settings.same_dice)
        rolled = fair_dice.roll_dice(
            key, fair.label_of(line), game.roll + 1, game.dice, locks, count, bound
        )
        game.reroll(rolled)  # refused before any change when no roll is left
        _record(session, game.seat, fair.next_roll(line, locks, rolled))
    slot.locks = locks
    slot.pending = None
    if now is not None:  # a person's roll: one decision made, the next one starts
        fairplay.decided(session, seat, now)
        fairplay.shown(session, seat, now)
    session.store(game)


def _cell(game: Game, column_id: str, row_id: str) -> tuple[int, int]:
    layout = game.layout
    return layout.column_index(column_id), layout.row_index(row_id)


def announce(
    session: GameSession, player_id: str, column_id: str, row_id: str, turn: int | None
) -> None:
    game = current(session, player_id, turn)
    if session.settings.pairs:
        team_turns.refuse_roll_in_grace(session)  # the 10 s are only to choose a cell
        team_turns.announce(session, game, *_cell(game, column_id, row_id))
    else:
        game.announce(*_cell(game, column_id, row_id))
    session.slot(session.seat_in_turn(game)).announced_after = game.roll
    if scorekeeping.is_scorekeeping(session):
        scorekeeping.announced(session, game, column_id, row_id)
    session.store(game)


def enter_dice(session: GameSession, player_id: str, dice: list[int], turn: int | None) -> None:
    """Scorekeeping: the dice rolled at the table, typed by the player in turn or the creator."""
    game = current(session, player_id, turn)
    if not scorekeeping.is_scorekeeping(session):
        raise GameActionError(Text("the server rolls the dice at this table"), code="not_allowed")
    scorekeeping.enter_dice(session, game, dice)


def select(
    session: GameSession,
    player_id: str,
    column_id: str | None,
    row_id: str | None,
    turn: int | None,
) -> None:
    """The pending choice: a legal cell the client chose before the deadline (rules.md 8)."""
    game = current(session, player_id, turn)
    slot = session.slot(session.seat_in_turn(game))
    if column_id is None or row_id is None:
        slot.pending = None
        return
    column, row = _cell(game, column_id, row_id)
    if session.settings.pairs:
        if (column, row) not in {(c, r) for c, r, _ in team_turns.choices(session, game)}:
            game.score_of(column, row)  # raises with the reason the cell is not legal now
    else:
        game.score_of(column, row)  # raises when the cell is not legal now
    slot.pending = (column, row)


def write(
    session: GameSession,
    player_id: str,
    column_id: str,
    row_id: str,
    turn: int | None,
    *,
    now: datetime,
    dice: DiceSource,
) -> Effects:
    game = current(session, player_id, turn)
    if session.settings.pairs:
        return _team_write(session, game, _cell(game, column_id, row_id), now, dice, auto=False)
    seat = game.seat
    announced = game.announcement
    written = game.write(*_cell(game, column_id, row_id))
    _record_moves(
        session, seat, announced, (written.column, written.row), written.score, auto=False
    )
    decisions.charge(session, seat, now)
    fairplay.decided(session, seat, now)
    if scorekeeping.is_scorekeeping(session):
        scorekeeping.written(session, game.players[seat], column_id, row_id)
    return after_write(session, game, now, dice, seat)


def due_turns(
    session: GameSession, now: datetime, tolerance: timedelta = DUE_TOLERANCE
) -> list[tuple[datetime, int]]:
    """The turns whose clock has run out, as (deadline, seat), earliest first."""
    if session.status != "running":
        return []
    return clock.deadlines(session, now + tolerance)


def expire_turn(
    session: GameSession,
    now: datetime,
    dice: DiceSource,
    tolerance: timedelta = DUE_TOLERANCE,
    seat: int | None = None,
) -> Effects | None:
    """A turn clock ran out (the earliest, or that of `seat`): the pending choice, else the
    auto-move. None when not due."""
    due = dict((s, d) for d, s in due_turns(session, now, tolerance))
    if not due:
        return None
    if seat is None:
        seat = min(due, key=lambda s: due[s])
    elif seat not in due:
        return None
    deadline = due[seat]
    game = session.game()
    if session.own_turns:
        game.focus(seat)
    if session.settings.pairs:
        return _expire_team_part(session, game, deadline, now, dice)
    slot = session.slot(seat)
    pending = slot.pending
    if pending is not None and game.is_legal(*pending):
        announced = game.announcement
        written = game.write(*pending)
    else:
        move = game.auto_move()
        if move.announces:
            slot.announced_after = game.roll
        announced = game.announcement or ((move.column, move.row) if move.announces else None)
        written = game.play_auto_move()
    _record_moves(session, seat, announced, (written.column, written.row), written.score, auto=True)
    # The whole clock was spent deciding, however late the timer came.
    decisions.charge(session, seat, min(now, deadline))
    fairplay.unseen(session, seat)  # the clock decided, not the player
    effects = after_write(session, game, now, dice, seat)
    effects.turns_timed_out = 1
    return effects


def _expire_team_part(
    session: GameSession, game: Game, deadline: datetime, now: datetime, dice: DiceSource
) -> Effects:
    """2 vs 2 (rules.md 7): the first player's time is up: the pending choice, else the best
    cell, becomes the proposal. The partner's: their dice lock and 10 more seconds start; when
    those are up, the pending choice is written, else the proposal as it is."""
    turn = team_turns.team(session)
    pending = session.pending
    chosen = {(c, r) for c, r, _ in team_turns.choices(session, game)}
    if turn.part == 2 and not turn.grace:
        turn.grace = True
        session.clock.deadline = team_turns.grace_deadline(deadline)
        session.store(game)
        return Effects()
    if pending is not None and pending in chosen:
        effects = _team_write(session, game, pending, now, dice, auto=True)
    elif turn.part == 1 or turn.proposal is None:
        best = team_turns.best_choice(session, game)
        effects = _team_write(session, game, best, now, dice, auto=True)
    else:
        effects = _team_write(session, game, turn.proposal[:2], now, dice, auto=True, as_is=True)
    effects.turns_timed_out = 1
    return effects
