"""Tournaments (issue 32, docs/competition.md): created by an operator or the schedule, entered
for free or for tokens, run by a job that each minute starts what is due, pairs who is free and
finishes what is over, recorded from each game's end, and paid once.

Every change of a tournament is one transaction on the versions read (its item, the entries it
moves, the games it adds), so two runs at once, or a run and a game's end, never both apply: the
loser reads again. Money moves only through the wallet, each under a key of its own
(`tournament-entry:`, `tournament-refund:`, `tournament-prize:` with the tournament and the
player), so an entry fee, a refund or a prize is taken or paid once whatever runs twice."""

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from yamb.competition import pairing
from yamb.competition.schedule import upcoming
from yamb.competition.standings import Entry, Played, Seat, scored, standings, with_bye
from yamb.competition.tournaments import (
    DEAL,
    MIN_ENTRANTS,
    Tournament,
    TournamentError,
    TournamentGame,
    TournamentPlan,
    due_to_start,
    game_seed,
    new_tournament,
    require_entry_open,
    tournament_game_id,
    tournament_id_for,
    window_open,
)
from yamb.economy.errors import EconomyError
from yamb.i18n import Text
from yamb.results.prizes import share_of
from yamb.session.results import GameResult

from yamb_service.common.observability import JOB_FAILED, MetricUnit, logger, metrics
from yamb_service.common.ports import TransactionPart
from yamb_service.competition.tournament_ports import (
    TableSeat,
    TournamentState,
    TournamentStore,
    TournamentTables,
)
from yamb_service.economy.ports import Change, WalletStore

ATTEMPTS = 6
# Steps of one tournament in one run: start, pairings in parts and their tables, finish (more:
# lost races).
STEPS = 20
# A game under way this long whose end never came (its record dead-lettered) is looked up at
# its table, a few each run.
LOST_END_AFTER = timedelta(minutes=45)
LOST_ENDS_PER_RUN = 10
# Pairings written per transaction (3 items each, with the tournament's: under DynamoDB's 100).
PAIRINGS_PER_WRITE = 30
LISTED = 40


@dataclass
class Run:
    """What one run of the tournaments job did."""

    created: list[str] = field(default_factory=list)
    started: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    paired: int = 0
    # Players of pairings whose table could not be made (at another game): not paired again
    # in this run.
    unseated: set[str] = field(default_factory=set)
    finished: list[str] = field(default_factory=list)
    paid: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


@dataclass
class Payout:
    tournament_id: str
    paid: list[str] = field(default_factory=list)
    repeated: int = 0


class TournamentService:
    def __init__(
        self,
        store: TournamentStore,
        wallets: WalletStore,
        tables: Callable[[], TournamentTables],
        *,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(32),
        nudge: Callable[[str], None] = lambda tournament_id: None,
    ) -> None:
        self.store = store
        self.wallets = wallets
        # The game service is built only by the functions that make tables (the job).
        self._tables = tables
        self.new_seed = new_seed
        # Asks for a run of one tournament now (the job, invoked asynchronously): an arena pairs
        # its players as they finish, a Swiss starts its next round when its last game ends;
        # the minute's run is there if the ask is lost.
        self.nudge = nudge

    # ---------------------------------------------------------------- creating and entering

    def create(self, plan: TournamentPlan, now: datetime) -> Tournament:
        """A tournament of an operator's (or the schedule's, with its series' id)."""
        tournament_id = (
            tournament_id_for(plan.series, plan.starts_at)
            if plan.series is not None
            else f"op-{secrets.token_hex(6)}"
        )
        tournament = new_tournament(tournament_id, plan, self.new_seed(), now)
        if not self.store.create(tournament):
            if plan.series is None:  # pragma: no cover - 48 random bits collided
                raise TournamentError(Text("try again"), code="busy", status=503)
            return self.store.state(tournament_id).tournament
        metrics.add_metric(name="TournamentCreated", unit=MetricUnit.Count, value=1)
        logger.info("tournament created", tournament_id=tournament_id, kind=plan.kind)
        return tournament

    def plan_schedule(self, now: datetime) -> list[Tournament]:
        """The schedule's tournaments of the coming week, each created once: the new ones."""
        made = []
        for series, starts_at in upcoming(now):
            tournament_id = tournament_id_for(series.series, starts_at)
            plan = series.plan(starts_at)
            tournament = new_tournament(tournament_id, plan, self.new_seed(), now)
            if self.store.create(tournament):
                made.append(tournament)
        return made

    def enter(self, tournament_id: str, player_id: str, nickname: str, now: datetime) -> Entry:
        """The player's entry, its fee taken from their wallet in the same transaction, on the
        tournament as read: an entry never lands after a start, a cancellation or its refunds
        were decided without it."""
        for attempt in range(ATTEMPTS):
            state = self._open_to(tournament_id, player_id, now)
            fee = state.tournament.plan.entry_fee
            entry = Entry(player_id=player_id, nickname=nickname, joined_at=now, paid=fee)
            if fee == 0:
                if self.store.enter(state.tournament, entry) == "written":
                    break
                self.store.pause(attempt)
                continue

            def parts(entry: Entry = entry) -> list[TransactionPart]:
                # Read again on each of the wallet's attempts: refused once it is closed.
                fresh = self._open_to(tournament_id, player_id, now)
                return [self.store.entry_part(fresh.tournament, entry)]

            try:
                applied = self.wallets.change(
                    f"tournament-entry:{tournament_id}:{player_id}",
                    [Change(player_id, -fee, "tournament_entry", detail=tournament_id)],
                    now,
                    also=parts,
                )
            except EconomyError as error:
                raise TournamentError(error.text, code=error.code, status=402) from error
            if not applied.written:
                raise TournamentError(
                    Text("you have entered this tournament already"), code="already_entered"
                )
            break
        else:
            raise TournamentError(
                Text("the tournament is busy: try again"), code="busy", status=503
            )
        metrics.add_metric(name="TournamentEntered", unit=MetricUnit.Count, value=1)
        return entry

    def _open_to(self, tournament_id: str, player_id: str, now: datetime) -> TournamentState:
        """The tournament, refused when it takes no entry now or has the player's."""
        state = self.store.state(tournament_id)
        require_entry_open(state.tournament, now)
        if player_id in state.entries:
            raise TournamentError(
                Text("you have entered this tournament already"), code="already_entered"
            )
        return state

    def state(self, tournament_id: str) -> TournamentState:
        return self.store.state(tournament_id)

    def listed(self) -> list[Tournament]:
        return self.store.listed(LISTED)

    # ---------------------------------------------------------------- the job

    def run(self, now: datetime, only: str | None = None) -> Run:
        """Each tournament the job has work with moved on as of `now` (or only the one named).
        One that fails is logged and left for the next run; the others go on."""
        done = Run()
        if only:
            self._step(only, now, done)
            return done
        # The listed ones too: a tournament made before the active markers existed (or one whose
        # marker was lost) is still run; the public list holds the weeks around now.
        listed = [t.tournament_id for t in self.store.listed(LISTED) if t.active]
        for tournament_id in dict.fromkeys([*self.store.active(), *listed]):
            try:
                self._step(tournament_id, now, done)
            except Exception:
                # Counted as a failed job (its alarm), though the run goes on with the others.
                logger.exception("tournament run failed", tournament_id=tournament_id)
                metrics.add_metric(name=JOB_FAILED, unit=MetricUnit.Count, value=1)
                done.failed.append(tournament_id)
        return done

    def _step(self, tournament_id: str, now: datetime, done: Run) -> None:
        """One tournament moved on as far as `now` allows: each step writes (or loses a race)
        and the tournament is read again, until nothing is due."""
        for attempt in range(STEPS):
            state = self.store.state(tournament_id)
            tournament = state.tournament
            if tournament.status in {"open", "running"} and self._repair(state, now, done):
                continue
            if due_to_start(tournament, now):
                moved = self._start(state, now, done)
            elif tournament.status == "running":
                moved = self._play(state, now, done)
            elif tournament.status == "cancelled" and not tournament.refunded:
                moved = self._refund(state, now)
            else:
                if tournament.status == "finished":
                    self.pay(tournament_id, now)
                    done.paid.append(tournament_id)
                return
            if not moved:
                return
            self.store.pause(attempt // 4)  # a few steps are normal; many mean lost races
        logger.warning("tournament run stopped after many steps", tournament_id=tournament_id)

    def _write(
        self,
        state: TournamentState,
        after: Tournament,
        entries: Sequence[Entry] = (),
        games: Sequence[TournamentGame] = (),
    ) -> bool:
        written = self.store.advance(state.tournament, after, entries=entries, games=games)
        return written == "written"

    def _start(self, state: TournamentState, now: datetime, done: Run) -> bool:
        tournament = state.tournament
        if len(state.entries) < MIN_ENTRANTS[tournament.kind]:
            return self._cancel(state, now, done)
        started = tournament.model_copy(
            update={"status": "running", "entrants": len(state.entries)}
        )
        if not self._write(state, started):
            return True
        done.started.append(tournament.tournament_id)
        logger.info("tournament started", tournament_id=tournament.tournament_id)
        return True

    def _cancel(self, state: TournamentState, now: datetime, done: Run) -> bool:
        """Cancelled on the version read (so with every entry: an entry moves the version on);
        the refunds follow, and are retried until done (`_refund`)."""
        tournament = state.tournament
        cancelled = tournament.model_copy(update={"status": "cancelled", "finished_at": now})
        if self._write(state, cancelled):
            done.cancelled.append(tournament.tournament_id)
            logger.info("tournament cancelled", tournament_id=tournament.tournament_id)
        return True

    def _refund(self, state: TournamentState, now: datetime) -> bool:
        """Each fee paid back once (its key), then the tournament marked refunded; a run that
        stops half-way is followed by one that pays the rest."""
        tournament = state.tournament
        for entry in state.entries.values():
            if entry.paid:
                self.wallets.change(
                    f"tournament-refund:{tournament.tournament_id}:{entry.player_id}",
                    [Change(entry.player_id, entry.paid, "tournament_refund",
                            detail=tournament.tournament_id)],
                    now,
                )  # fmt: skip
        return not self._write(state, tournament.model_copy(update={"refunded": True}))

    def _play(self, state: TournamentState, now: datetime, done: Run) -> bool:
        """Pairs what is due; the tournament finished once no game is under way and none can
        start. True when something was written (read again)."""
        tournament = state.tournament
        if self._collect_lost_ends(state, now):
            return True
        under_way = any(not game.ended for game in state.games.values())
        match tournament.kind:
            case "arena":
                if window_open(tournament, now):
                    return self._pair_arena(state, now, done)
            case "duplicate":
                if window_open(tournament, now):
                    return self._deal_duplicate(state, now, done)
            case "swiss":
                if tournament.pending:
                    return self._make_pending(state, now, done)
                if not under_way and tournament.round < tournament.rounds:
                    paired = self._pair_swiss(state, now)
                    if paired is not None:
                        return paired
        if under_way:
            return False
        finished = tournament.model_copy(update={"status": "finished", "finished_at": now})
        if self._write(state, finished):
            done.finished.append(tournament.tournament_id)
            metrics.add_metric(name="TournamentFinished", unit=MetricUnit.Count, value=1)
        return True

    def _collect_lost_ends(self, state: TournamentState, now: datetime) -> bool:
        """The ends of games under way for long that never reached the standings (their
        record dead-lettered), read from their tables: recorded, or void when the table is
        gone. True when one was written."""
        stale = sorted(
            (game for game in state.games.values()
             if game.started and not game.ended and now - game.created_at >= LOST_END_AFTER),
            key=lambda game: game.created_at,
        )[:LOST_ENDS_PER_RUN]  # fmt: skip
        if not stale:
            return False
        tables = self._tables()
        written = False
        for game in stale:
            outcome = tables.outcome(game.game_id)
            if outcome == "playing":
                continue
            logger.warning("tournament game end collected", game_id=game.game_id,
                           tournament_id=state.tournament.tournament_id)  # fmt: skip
            if outcome == "gone":
                written = self._void(game, state.tournament.tournament_id) or written
            else:
                written = self.record(outcome) or written
        return written

    def _void(self, game: TournamentGame, tournament_id: str) -> bool:
        """A game that will never have a result: no points, its players free again."""
        state = self.store.state(tournament_id)
        current = state.games[game.game_id]
        if current.ended:
            return False
        freed = [state.entries[p].model_copy(update={"game_id": None}) for p in current.players
                 if state.entries[p].game_id == current.game_id]  # fmt: skip
        closed = current.model_copy(update={"started": True, "ended": True, "void": True})
        return self._write(state, state.tournament, freed, [closed])

    def _free(self, state: TournamentState) -> list[str]:
        return [p for p, e in state.entries.items() if e.game_id is None]

    def _pair_arena(self, state: TournamentState, now: datetime, done: Run) -> bool:
        there = self._tables().present(set(self._free(state)) - done.unseated, now)
        rows = [row for row in standings("arena", state.entries.values())
                if row.entry.player_id in there]  # fmt: skip
        return self._pair(state, pairing.arena_pairs(rows), now, done)

    def _pair_swiss(self, state: TournamentState, now: datetime) -> bool | None:
        """The next round chosen whole and written with its number in one write (its games
        follow, `_make_pending`); None when no round without a repeat exists: the Swiss ends
        with the rounds played."""
        tournament = state.tournament
        rows = standings("swiss", state.entries.values())
        try:
            pairs, bye = pairing.swiss_round(rows)
        except TournamentError as error:
            if error.code != "pairing_would_repeat":
                raise
            logger.warning("swiss ends early: every round left would repeat a game",
                           tournament_id=tournament.tournament_id,
                           round=tournament.round)  # fmt: skip
            return None
        after = tournament.model_copy(
            update={"round": tournament.round + 1, "pending": [list(pair) for pair in pairs]}
        )
        entries = [with_bye(state.entries[bye])] if bye is not None else []
        self._write(state, after, entries)
        return True

    def _make_pending(self, state: TournamentState, now: datetime, done: Run) -> bool:
        tournament = state.tournament
        chunk = [tuple(players) for players in tournament.pending[:PAIRINGS_PER_WRITE]]
        after = tournament.model_copy(update={"pending": tournament.pending[PAIRINGS_PER_WRITE:]})
        return self._pair(state, chunk, now, done, round=tournament.round, after=after)

    def _deal_duplicate(self, state: TournamentState, now: datetime, done: Run) -> bool:
        waiting = [
            p for p, e in state.entries.items()
            if e.game_id is None and e.games == 0 and p not in done.unseated
        ]  # fmt: skip
        # One at another game is dealt once they are free (a table made now would be void).
        busy = self._tables().busy(waiting, now) if waiting else set()
        return self._pair(state, [(p,) for p in waiting if p not in busy], now, done)

    def _pair(
        self,
        state: TournamentState,
        pairs: Sequence[tuple[str, ...]],
        now: datetime,
        done: Run,
        *,
        round: int = 0,
        after: Tournament | None = None,
    ) -> bool:
        """Up to one transaction's pairings written (their tables made next, `_repair`; the
        rest by the next step)."""
        tournament = state.tournament
        if not pairs and after is None:
            return False
        serial = len(state.games)
        games = [
            TournamentGame(
                game_id=tournament_game_id(tournament.tournament_id, serial + n),
                round=round,
                players=list(players),
                created_at=now,
            )
            for n, players in enumerate(pairs[:PAIRINGS_PER_WRITE])
        ]
        moved = [
            state.entries[p].model_copy(update={"game_id": game.game_id})
            for game in games
            for p in game.players
        ]
        if self._write(state, after or tournament, moved, games):
            done.paired += len(games)
        return True

    def _repair(self, state: TournamentState, now: datetime, done: Run) -> bool:
        """Makes the table of each pairing that has none yet. A pairing whose table cannot be
        made because a player sits at another game: in an arena or a duplicate it is dropped,
        its players free again; in a Swiss, whose round is not played again, it is a forfeit.
        True when a table was tried."""
        tournament = state.tournament
        pending = [
            game for game in state.games.values()
            if not game.started and not game.ended and not done.unseated & set(game.players)
        ]  # fmt: skip
        if not pending:
            return False
        tables = self._tables()
        settings = tournament.plan.settings()
        duplicate = tournament.kind == "duplicate"
        for game in pending:
            seats = [TableSeat(p, state.entries[p].nickname) for p in game.players]
            label = DEAL if duplicate else game.game_id
            made = tables.open_table(
                tournament.tournament_id,
                game.game_id,
                seats,
                settings,
                game_seed(tournament.seed, label),
                tournament.tournament_id if duplicate else None,
                now,
            )
            state = self.store.state(tournament.tournament_id)
            current = state.games[game.game_id]
            if made:
                self._write(
                    state, state.tournament, (), [current.model_copy(update={"started": True})]
                )
                logger.info("tournament table made", tournament_id=tournament.tournament_id,
                            game_id=game.game_id)  # fmt: skip
                continue
            busy = tables.busy(game.players, now)
            done.unseated.update(game.players)
            if tournament.kind == "swiss" and busy:
                self._forfeit(state, current, busy, now)
            elif busy or tables.outcome(game.game_id) == "gone":
                # Someone sits elsewhere, or the table was closed before it started (a run died
                # between making and starting it): no game. A Swiss pairs the same players again
                # under a new id, so that nobody loses the round; elsewhere they are free again.
                self._drop(state, current, now, again=tournament.kind == "swiss" and not busy)
            # else: the table waits to be started (or a seat was freed meanwhile): next run
        return True

    def _drop(
        self, state: TournamentState, game: TournamentGame, now: datetime, *, again: bool
    ) -> None:
        """A pairing without its game: void, its players free, or paired `again` under the
        tournament's next game id."""
        void = game.model_copy(update={"started": True, "ended": True, "void": True})
        repeat = game.model_copy(
            update={
                "game_id": tournament_game_id(state.tournament.tournament_id, len(state.games)),
                "created_at": now,
                "version": 0,
            }
        )
        seat = repeat.game_id if again else None
        moved = [state.entries[p].model_copy(update={"game_id": seat}) for p in game.players]
        self._write(state, state.tournament, moved, [void, repeat] if again else [void])

    def _forfeit(
        self, state: TournamentState, game: TournamentGame, busy: set[str], now: datetime
    ) -> None:
        """A Swiss pairing whose players in `busy` sat at another game when it was to start:
        they lose it, the other wins (both lose when both sat elsewhere)."""
        played = Played(
            game_id=game.game_id,
            seats=tuple(Seat(p, 0, p in busy) for p in game.players),
            winners=frozenset(p for p in game.players if p not in busy),
            ended_at=now,
        )
        after = scored("swiss", state.entries, played)
        closed = game.model_copy(
            update={"started": True, "ended": True, "forfeit": True,
                    "winners": sorted(played.winners)}
        )  # fmt: skip
        if self._write(state, state.tournament, list(after.values()), [closed]):
            logger.info("tournament game forfeited", game_id=game.game_id, players=sorted(busy))

    # ---------------------------------------------------------------- a game's end

    def record(self, ended: GameResult) -> bool:
        """A tournament game's end into its standings, once (False: not a tournament's, or
        recorded before)."""
        if ended.tournament is None:
            return False
        for attempt in range(ATTEMPTS):
            try:
                state = self.store.state(ended.tournament)
            except TournamentError:
                # Gone (or never there): retrying the stream's record would not bring it back.
                logger.warning("a game's tournament is unknown", tournament_id=ended.tournament)
                return False
            game = state.games.get(ended.game_id)
            if game is None or game.ended:
                return False
            played = Played(
                game_id=ended.game_id,
                seats=tuple(
                    Seat(p.player_id, p.total, p.left or p.abandoned)
                    for p in ended.players
                    if p.player_id in state.entries
                ),
                winners=frozenset(ended.winners),
                ended_at=ended.ended_at,
            )
            after = scored(state.tournament.kind, state.entries, played)
            closed = game.model_copy(
                update={
                    "ended": True,
                    "started": True,
                    "totals": {s.player_id: s.total for s in played.seats},
                    "winners": sorted(ended.winners),
                }
            )
            if self._write(state, state.tournament, list(after.values()), [closed]):
                metrics.add_metric(name="TournamentGameRecorded", unit=MetricUnit.Count, value=1)
                self.nudge(ended.tournament)
                return True
            self.store.pause(attempt)
        raise TournamentError(Text("the tournament is busy: try again"), code="busy", status=503)

    # ---------------------------------------------------------------- prizes

    def pay(self, tournament_id: str, now: datetime) -> Payout:
        """A finished tournament's prizes, each paid once (a rerun pays what is left)."""
        state = self.store.state(tournament_id)
        tournament = state.tournament
        if tournament.status in {"open", "running"}:
            raise TournamentError(
                Text("this tournament is not over: its prizes are paid after it"),
                code="tournament_running",
            )
        if tournament.status == "cancelled":
            raise TournamentError(
                Text("this tournament was cancelled: there is nothing to pay"),
                code="tournament_cancelled",
            )
        payout = Payout(tournament_id)
        prizes = tuple(tournament.plan.prizes)
        # Prizes go to those who played, placed among themselves: an entrant who never sat at a
        # game (no game, or only a bye or a forfeit lost at another table) wins nothing, even
        # where fewer played than there are prizes.
        played = {
            p for game in state.games.values() if game.ended and not game.void
            for p in (game.winners if game.forfeit else game.players)
        }  # fmt: skip
        if tournament.kind == "duplicate":
            played = {p for p, e in state.entries.items() if e.score is not None}
        rows = [row for row in standings(tournament.kind, state.entries.values())
                if row.entry.player_id in played]  # fmt: skip
        # Their places as the standings order them, counted among themselves (ties kept).
        rows = [
            replace(row, place=1 + sum(1 for other in rows if other.place < row.place))
            for row in rows
        ]
        for row in rows:
            tied = sum(1 for other in rows if other.place == row.place)
            tokens = share_of(row.place, tied, prizes) if row.place <= len(prizes) else 0
            if tokens <= 0:
                continue
            applied = self.wallets.change(
                f"tournament-prize:{tournament_id}:{row.entry.player_id}",
                [Change(row.entry.player_id, tokens, "prize", detail=tournament_id)],
                now,
            )
            if applied.written:
                payout.paid.append(f"{row.entry.player_id} {tokens}")
                metrics.add_metric(name="TournamentPrizePaid", unit=MetricUnit.Count, value=1)
            else:
                payout.repeated += 1
        if tournament.status == "finished":
            self._write(state, tournament.model_copy(update={"status": "paid"}))
        return payout
