"""Results (R1-R5, S4), fed by the game's end and read over HTTP.

`ResultsRecorder` takes each finished game from the table's stream (the `ENDED` item the write
that ends a game puts, decision 70): the players' statistics and head-to-heads once (one
transaction with the game's `COUNTED` marker), then each full sheet onto the boards it improves
(each row a conditional write on its version: a repeat finds the game already in the row and
writes nothing). The game handler writes none of it: a move stays one read and one write.

`ResultsService` answers the boards, statistics, head-to-heads, favorites and the public page;
`PrizeService` pays a period's prize boards (R2) once it has ended."""

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from aws_lambda_powertools.metrics import MetricUnit
from yamb.accounts.nicknames import MAX_NICKNAME_CHARS
from yamb.accounts.profile import AccountStatus, Profile
from yamb.clubs.tag import TagView
from yamb.competition.messages import RatingView
from yamb.i18n import Text
from yamb.push.messages import PushKind, PushRequest
from yamb.results import periods
from yamb.results.boards import (
    MAIN,
    TOP,
    Board,
    Contribution,
    Entry,
    boards_for,
    contributions,
    improved,
)
from yamb.results.errors import ResultsError
from yamb.results.head_to_head import meeting_sides
from yamb.results.messages import (
    BoardView,
    FavoritesView,
    FavoriteView,
    HeadToHeadView,
    MedalsView,
    PastGamesView,
    PastGameView,
    PastSeatView,
    RatesView,
    RowView,
    SkillView,
    StatisticsView,
)
from yamb.results.periods import ALL_TIME, PeriodKind
from yamb.results.played import PlayedSeat, played_games
from yamb.results.prizes import PRIZES, Award, awards, places, share_of
from yamb.results.stats import PlayerStats, counted, counted_players
from yamb.session.results import GameResult

from yamb_service.accounts.ports import Profiles
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import logger, metrics
from yamb_service.economy.ports import Change, WalletStore
from yamb_service.push.ports import NoPusher, Pusher
from yamb_service.results import MAX_FAVORITES
from yamb_service.results.ports import ResultsStore

ATTEMPTS = 8
MEETINGS_PAGE = 20
PAST_GAMES_PAGE = 20
# How long a payout waits after closing a period before reading its boards' index (gsi1 is
# eventually consistent: it follows the table within a second, typically).
SETTLE_SECONDS = 5.0
# A row shows its players' nicknames now, read at most once a minute by a warm function.
NAMES_SECONDS = 60.0
MAX_NAMES = 10_000
# A meetings page's `before`: `<ISO moment>#<game id>`, as nextBefore gives it.
_MEETING_KEY = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.+\-Z]{8,40}#[A-Za-z0-9_\-]{1,64}")
_PAYABLE = (AccountStatus.ACTIVE, AccountStatus.DELETING)
_VISIBLE = (AccountStatus.ACTIVE, AccountStatus.DELETING, AccountStatus.BANNED)


def _page_shown(profile: Profile) -> bool:
    """Whether the player's public page is shown: switched on, and the account active."""
    return profile.preferences.public_page and profile.status == AccountStatus.ACTIVE


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Recorded:
    """What recording one game did (for logs and tests)."""

    counted: bool = False
    rows: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


class _OnResults:
    """What both sides of results hold: the results' store, the accounts (names), the clock."""

    def __init__(
        self,
        store: ResultsStore,
        accounts: Profiles,
        now: Callable[[], datetime] = _utc_now,
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.now = now


class ResultsRecorder(_OnResults):
    def record(self, result: GameResult) -> Recorded:
        recorded = Recorded(counted=self._count(result))
        entered = contributions(result)
        if entered:
            self._enter_boards(entered, recorded)
        for key in recorded.left_out:
            metrics.add_metric(name="LateResultLeftOut", unit=MetricUnit.Count, value=1)
            logger.warning("result after its period's payout", board=key)
        if recorded.rows:
            metrics.add_metric(
                name="BoardRowsWritten", unit=MetricUnit.Count, value=len(recorded.rows)
            )
        logger.info("game results recorded", counted=recorded.counted, rows=len(recorded.rows))
        return recorded

    def _enter_boards(self, entered: list[Contribution], recorded: Recorded) -> None:
        """Each full sheet on each board it may change: the rows read in one request first."""
        targets = [(c, b) for c in entered for b in boards_for(c)]
        read = self.store.rows_at((b, c.entrant) for c, b in targets)
        for contribution, target in targets:
            first = read.get((target.key, contribution.entrant))
            outcome = self._enter(target, contribution, first)
            if outcome == "written":
                recorded.rows.append(target.key)
            elif outcome == "closed":
                recorded.left_out.append(target.key)

    def _count(self, result: GameResult) -> bool:
        people = counted_players(result)
        if not people:
            return False
        sides = meeting_sides(result) if result.outcome != "cancelled" else []
        for attempt in range(ATTEMPTS):
            before = self.store.statistics(p.player_id for p in people)
            after = {
                p.player_id: counted(before.get(p.player_id, PlayerStats()), result, p)
                for p in people
            }
            outcome = self.store.count_game(
                result.game_id,
                self.now(),
                before,
                after,
                sides,
                played=played_games(result, people),
            )
            if outcome == "counted":
                metrics.add_metric(name="GameCounted", unit=MetricUnit.Count, value=1)
                return True
            if outcome == "counted_before":
                return False
            self.store.pause(attempt)
        raise ServiceBusyError()

    def _enter(self, target: Board, contribution: Contribution, first: Entry | None) -> str:
        """The contribution on one board: `first` is the row as read with the others; a lost
        race reads it again."""
        before = first
        for attempt in range(ATTEMPTS):
            if attempt:
                before = self.store.rows(target, [contribution.entrant]).get(contribution.entrant)
            after = improved(before, target, contribution)
            if after is None:
                if contribution.format == "pairs" and _holds(before, contribution):
                    # A repeat after a crash between the row and its members' pointers.
                    for player in contribution.players:
                        self.store.point_to_pair(player, target, before)  # type: ignore[arg-type]
                return "unchanged"
            outcome = self.store.write_row(target, before, after)
            if outcome != "moved":
                if outcome == "written" and contribution.format == "pairs":
                    for player in contribution.players:
                        self.store.point_to_pair(player, target, after)
                if outcome == "written" and before is not None and before.score != after.score:
                    self.store.forget_score(target, before.score)
                return outcome
            self.store.pause(attempt)
        raise ServiceBusyError()


def _holds(entry: Entry | None, contribution: Contribution) -> bool:
    return entry is not None and any(g.game_id == contribution.game.game_id for g in entry.games)


class ResultsService(_OnResults):
    def __init__(
        self,
        store: ResultsStore,
        accounts: Profiles,
        now: Callable[[], datetime] = _utc_now,
        *,
        tags: Callable[[list[str]], Mapping[str, TagView]] = lambda players: {},
        club_mates: Callable[[str], list[str]] = lambda viewer: [],
        ratings: Callable[[str], list[RatingView]] = lambda player: [],
    ) -> None:
        super().__init__(store, accounts, now)
        # The player's skill ratings (yamb_service.competition), on their statistics.
        self.ratings = ratings
        # player id -> (until when, in time.monotonic(), the nickname and the main club's tag
        # read then)
        self._names: dict[str, tuple[float, str, TagView | None]] = {}
        # The clubs (yamb_service.clubs): the main club's tag beside each name (C1), and the
        # members of the viewer's live clubs (the clubs kind of a board, R1).
        self.tags = tags
        self.club_mates = club_mates

    # -------------------------------------------------------------- boards

    def board(self, viewer: str, target: Board, kind: str) -> BoardView:
        prizes = list(PRIZES.get(target.family, ()))
        if kind == "all":
            rows, mine = self._top(viewer, target)
        elif kind == "favorites":
            rows, mine = self._favorites_board(viewer, target), None
        elif kind == "clubs":
            rows, mine = self._clubs_board(viewer, target), None
        else:
            raise ResultsError(
                Text("unknown kind '{kind}': all, favorites or clubs", kind=kind),
                code="unknown_board",
                field="kind",
            )
        if kind == "all" and prizes:
            rows = _with_prizes(rows, prizes)
        return BoardView(
            board=target.key,
            kind=kind,
            period_ends_at=target.period.end,
            rows=rows,
            mine=mine,
            prizes=prizes,
        )

    def _top(self, viewer: str, target: Board) -> tuple[list[RowView], RowView | None]:
        top = self.store.top(target, TOP)
        mine_entrant = self._entrant_of(viewer, target)
        entry = None
        if mine_entrant is not None and all(e.entrant != mine_entrant for e in top):
            entry = self.store.rows(target, [mine_entrant]).get(mine_entrant)
        named = self._named([*top, *([entry] if entry is not None else [])])
        rows = self._tagged(_rows(named[: len(top)], mine_entrant), named[: len(top)])
        if entry is None:
            return rows, None
        mine = _row(named[-1], self.store.place(target, entry.score), me=True)
        return rows, self._tagged([mine], [named[-1]])[0]

    def _named(self, entries: list[Entry]) -> list[Entry]:
        """The rows with their players' nicknames now (a rename, a purged account's id name):
        from the names this function read in the last minute, the others in one batch read,
        with their main clubs' tags (`_tagged`) in two more."""
        now = time.monotonic()
        players = {p for e in entries for p in e.players}
        missing = [p for p in players if self._names.get(p, (0.0, "", None))[0] < now]
        if missing:
            if len(self._names) > MAX_NAMES:
                self._names.clear()
            found = self.accounts.profiles(missing)
            tags = self.tags(sorted(missing))
            for player_id in missing:
                # No profile (gone for good: a never-verified account dropped): its id.
                profile = found.get(player_id)
                name = profile.nickname if profile else player_id
                self._names[player_id] = (now + NAMES_SECONDS, name, tags.get(player_id))
        return [
            e.model_copy(update={"names": [self._names[p][1] for p in e.players]}) for e in entries
        ]

    def _entrant_of(self, viewer: str, target: Board) -> str | None:
        if target.format == "individual":
            return viewer
        return self.store.pair_row(viewer, target)

    def _favorites_board(self, viewer: str, target: Board) -> list[RowView]:
        if target.format == "pairs":
            raise ResultsError(
                Text(
                    "a favorite is a player and a pairs board's rows are pairs: the favorites "
                    "board is for individual boards"
                ),
                code="board_not_available",
                field="kind",
            )
        found = self.store.rows(target, [viewer, *self.store.favorites(viewer)])
        ordered = sorted(found.values(), key=lambda e: (-e.score, e.since, e.entrant))
        return self._tagged(_rows(self._named(ordered), viewer), ordered)

    def _clubs_board(self, viewer: str, target: Board) -> list[RowView]:
        """The board among the viewer and the members of their live clubs (R1's clubs kind)."""
        if target.format == "pairs":
            raise ResultsError(
                Text(
                    "a club's members are players and a pairs board's rows are pairs: the clubs "
                    "board is for individual boards"
                ),
                code="board_not_available",
                field="kind",
            )
        found = self.store.rows(target, [viewer, *self.club_mates(viewer)])
        ordered = sorted(found.values(), key=lambda e: (-e.score, e.since, e.entrant))
        return self._tagged(_rows(self._named(ordered), viewer), ordered)

    def _tagged(self, rows: list[RowView], entries: list[Entry]) -> list[RowView]:
        """Each row with its players' main clubs' tags (C1), as `_named` read them with the
        names (the entries are named ones)."""
        return [
            row.model_copy(update={"tags": [self._names[p][2] for p in entry.players]})
            for row, entry in zip(rows, entries, strict=True)
        ]

    # -------------------------------------------------------------- players

    def _player(self, nickname: str) -> Profile:
        if not 0 < len(nickname) <= MAX_NICKNAME_CHARS:  # no key to read: no one has it
            raise ResultsError(
                Text("no player is called '{nickname}'", nickname=nickname[:40]),
                code="unknown_player",
                field="nickname",
            )
        owner = self.accounts.nickname_owner(nickname)
        profile = self.accounts.get(owner) if owner is not None else None
        if profile is None or profile.status not in _VISIBLE:
            raise ResultsError(
                Text("no player is called '{nickname}'", nickname=nickname),
                code="unknown_player",
                field="nickname",
            )
        return profile

    def statistics(self, nickname: str, viewer: str | None = None) -> StatisticsView:
        """A player's statistics as `viewer` (a signed-in player; None: anyone else) sees them
        (R4). What the player wrote about themself (description, country, proud game) is their
        public page's (R5): another player sees it only while that page is shown (switched on,
        the account active: not during the deletion's grace period, nor banned); the player
        themself always sees theirs."""
        profile = self._player(nickname)
        view = self._statistics(profile)
        if viewer == profile.player_id or _page_shown(profile):
            return view
        return view.model_copy(update={"description": "", "country": None, "proud_game": None})

    def public_page(self, nickname: str) -> StatisticsView:
        """The statistics a visitor sees (R5). A player who hid them, a locked or deleted
        account and a nickname no one has get the same answer: the page does not exist."""
        missing = ResultsError(
            Text("no public page for '{nickname}'", nickname=nickname),
            code="unknown_player",
            field="nickname",
        )
        try:
            profile = self._player(nickname)
        except ResultsError:
            raise missing from None
        if not _page_shown(profile):
            raise missing
        return self._statistics(profile)

    def _statistics(self, profile: Profile) -> StatisticsView:
        player = profile.player_id
        stats = self.store.statistics([player]).get(player, PlayerStats())
        main = Board("individual", MAIN, "best", ALL_TIME)
        row = self.store.rows(main, [player]).get(player)
        medals = MedalsView.model_validate(
            _medal_counts(award.get("medal") for award in self.store.awards(player))
        )
        settings = profile.preferences
        return StatisticsView(
            nickname=profile.nickname,
            club=self.tags([player]).get(player),
            country=settings.country,
            description=settings.description,
            proud_game=settings.proud_game,
            public_page=_page_shown(profile),
            member_since=profile.created_at,
            games=stats.games,
            wins=stats.wins,
            losses=stats.losses,
            win_rate=stats.win_rate,
            main_board_score=None if row is None else row.score,
            main_board_place=None if row is None else self.store.place(main, row.score),
            medals=medals,
            abandoned=stats.abandoned,
            records=stats.records,
            kinds=stats.kinds,
            rates=RatesView.of(stats.sheets),
            ratings=self.ratings(player),
            skill=[
                SkillView.of(kind, skill)
                for kind, skill in sorted(stats.skill.items(), key=lambda item: -item[1].games)
                if skill.games
            ],
        )

    def head_to_head(self, viewer: str, nickname: str, before: str | None) -> HeadToHeadView:
        if before is not None and not _MEETING_KEY.fullmatch(before):
            raise ResultsError(
                Text("before is the nextBefore of the page before"),
                code="bad_request",
                field="before",
            )
        opponent = self._player(nickname)
        counts = self.store.head_to_head(viewer, opponent.player_id)
        found = self.store.meetings(viewer, opponent.player_id, MEETINGS_PAGE + 1, before)
        meetings = found[:MEETINGS_PAGE]
        last = meetings[-1] if len(found) > MEETINGS_PAGE else None
        return HeadToHeadView(
            opponent=opponent.nickname,
            wins=counts.wins,
            losses=counts.losses,
            ties=counts.ties,
            meetings=meetings,
            next_before=None if last is None else f"{last.at.isoformat()}#{last.game_id}",
        )

    # -------------------------------------------------------------- past games

    def past_games(self, viewer: str, before: str | None) -> PastGamesView:
        """The viewer's own past games, a page at a time; the others named as they are now."""
        if before is not None and not _MEETING_KEY.fullmatch(before):
            raise ResultsError(
                Text("before is the nextBefore of the page before"),
                code="bad_request",
                field="before",
            )
        found = self.store.played(viewer, PAST_GAMES_PAGE + 1, before)
        games = found[:PAST_GAMES_PAGE]
        last = games[-1] if len(found) > PAST_GAMES_PAGE else None
        people = {s.player_id for g in games for s in g.others if s.bot is None}
        profiles = self.accounts.profiles(sorted(people)) if people else {}

        def name(seat: PlayedSeat) -> str | None:
            profile = profiles.get(seat.player_id)
            return profile.nickname if profile is not None and profile.status in _VISIBLE else None

        return PastGamesView(
            games=[
                PastGameView(
                    game_id=g.game_id,
                    at=g.at,
                    grid=g.grid,
                    preset=g.preset,
                    ranked=g.ranked,
                    outcome=g.outcome,
                    verdict=g.verdict,
                    mine=g.mine,
                    others=[
                        PastSeatView(nickname=None if s.bot else name(s), bot=s.bot, total=s.total)
                        for s in g.others
                    ],
                )
                for g in games
            ],
            next_before=None if last is None else f"{last.at.isoformat()}#{last.game_id}",
        )

    # -------------------------------------------------------------- favorites

    def favorites(self, viewer: str) -> FavoritesView:
        names = sorted((p.nickname for p in self._visible_favorites(viewer)), key=str.casefold)
        return FavoritesView(favorites=[FavoriteView(nickname=n) for n in names])

    def _visible_favorites(self, viewer: str) -> list[Profile]:
        """The favorites whose accounts are there; a deleted one's follow is dropped (it can
        no longer be named to unfollow, and must not fill the bound)."""
        followed = self.store.favorites(viewer)
        profiles = self.accounts.profiles(followed)
        visible = [p for p in profiles.values() if p.status in _VISIBLE]
        for gone in set(followed) - {p.player_id for p in visible}:
            self.store.set_favorite(viewer, gone, on=False)
        return visible

    def follow(self, viewer: str, nickname: str, on: bool) -> FavoritesView:
        favorite = self._player(nickname).player_id
        if favorite == viewer:
            raise ResultsError(
                Text("you are always on your own favorites board"),
                code="favorite_self",
                field="nickname",
            )
        if on and len(self._visible_favorites(viewer)) >= MAX_FAVORITES:
            raise ResultsError(
                Text("at most {max_favorites} favorites", max_favorites=MAX_FAVORITES),
                code="too_many_favorites",
                field="nickname",
            )
        self.store.set_favorite(viewer, favorite, on)
        return self.favorites(viewer)


def _row(entry: Entry, place: int, me: bool = False) -> RowView:
    return RowView(
        place=place,
        names=entry.names,
        score=entry.score,
        game_ids=[g.game_id for g in sorted(entry.games, key=lambda g: -g.score)],
        me=me,
    )


def _rows(entries: list[Entry], mine: str | None) -> list[RowView]:
    shared = places([e.score for e in entries])
    return [
        _row(entry, place, me=entry.entrant == mine)
        for entry, place in zip(entries, shared, strict=True)
    ]


def _with_prizes(rows: list[RowView], prizes: list[int]) -> list[RowView]:
    """Each row's prize as the payout would pay it now (the tie rule: yamb.results.prizes)."""
    shown: list[RowView] = []
    for place in dict.fromkeys(row.place for row in rows):
        group = [row for row in rows if row.place == place]
        share = share_of(place, len(group), tuple(prizes)) or None
        shown.extend(row.model_copy(update={"prize": share}) for row in group)
    return shown


def _medal_counts(medals: object) -> dict[str, int]:
    counts = {"gold": 0, "silver": 0, "bronze": 0}
    for medal in medals:  # type: ignore[attr-defined]
        if medal in counts:
            counts[medal] += 1
    return counts


@dataclass
class Payout:
    period: str
    paid: list[str] = field(default_factory=list)  # "<board> <player> <tokens>", paid now
    repeated: int = 0  # prizes found paid before (a rerun)
    unpaid: list[str] = field(default_factory=list)  # "<board> <player>": a closed account


class PrizeService:
    """Pays the prize boards of a period that has ended (R2), each prize exactly once: the
    period is closed first (no row of it changes after), then each award is one wallet
    change under the key `prize:<board>:<entrant>:<player>`, with its record. A run that
    stopped halfway and runs again pays what is left: the paid keys answer without paying.
    A banned or deleted account keeps its place but is paid nothing."""

    def __init__(
        self,
        store: ResultsStore,
        wallets: WalletStore,
        accounts: Profiles,
        now: Callable[[], datetime] = _utc_now,
        *,
        settle_seconds: float = SETTLE_SECONDS,
        sleep: Callable[[float], None] = time.sleep,
        pusher: Pusher | None = None,
    ) -> None:
        # A prize paid is pushed to the winner's phones (Web Push, A8 "rewards").
        self.pusher: Pusher = pusher or NoPusher()
        self.store = store
        self.wallets = wallets
        self.accounts = accounts
        self.now = now
        self.settle_seconds = settle_seconds
        self.sleep = sleep

    def pay(self, kind: PeriodKind, now: datetime, period_id: str | None = None) -> Payout:
        period = periods.previous(kind, now) if period_id is None else periods.parse(period_id, now)
        if period.kind != kind:
            raise ResultsError(
                Text("{period} is not a {kind}", period=period.id, kind=kind),
                code="unknown_period",
                field="period",
            )
        if not period.has_ended(now):
            raise ResultsError(
                Text(
                    "{period} ends at {end}: its prizes are paid after that",
                    period=period.id,
                    end=period.end,
                ),
                code="period_not_ended",
                field="period",
            )
        self.store.close(period, now)
        payout = Payout(period=period.id)
        settled = False
        for family, prizes in PRIZES.items():
            if not family.endswith(f"/{kind}"):
                continue
            format, columns, side, _ = family.split("/")
            target = Board(format, columns, side, period)  # type: ignore[arg-type]
            found = self.store.standing(target)
            if found is None:
                if not settled:
                    # The order is read from an index, which follows the table within a
                    # moment: a row written just before the close is in it after this.
                    self.sleep(self.settle_seconds)
                    settled = True
                worked_out = awards(self._standing(target, len(prizes)), prizes)
                found = self.store.keep_standing(target, worked_out)
            payable = self._payable({p for award in found for p in award.players})
            for award in found:
                self._pay(target, award, payable, payout)
        logger.info(
            "prizes paid", period=period.id, paid=len(payout.paid), repeated=payout.repeated
        )
        return payout

    def _standing(self, target: Board, prize_places: int) -> list[Entry]:
        """The board's rows down to the last one tied with the last prize place."""
        limit = max(prize_places * 2, 10)
        while True:
            rows = self.store.top(target, limit)
            if len(rows) < limit or rows[-1].score != rows[prize_places - 1].score:
                return rows
            limit *= 2

    def _payable(self, players: set[str]) -> set[str]:
        profiles = self.accounts.profiles(players)
        return {p for p, profile in profiles.items() if profile.status in _PAYABLE}

    def _pay(self, target: Board, award: Award, payable: set[str], payout: Payout) -> None:
        record = {
            "board": target.key,
            "period": target.period.id,
            "entrant": award.entrant,
            "place": award.place,
            "tokens": award.tokens,
            "score": award.score,
            "medal": award.medal,
        }
        for player in award.players:
            if player not in payable:
                logger.warning("prize not paid: account closed", board=target.key, player=player)
                payout.unpaid.append(f"{target.key} {player}")
                continue
            applied = self.wallets.change(
                f"prize:{target.key}:{award.entrant}:{player}",
                [Change(player, award.tokens, "prize", detail=target.key)],
                self.now(),
                also=[self.store.award_part(player, target, award.entrant, record)],
            )
            if applied.written:
                payout.paid.append(f"{target.key} {player} {award.tokens}")
                metrics.add_metric(name="PrizePaid", unit=MetricUnit.Count, value=1)
                self.pusher.push(
                    PushRequest(
                        player_id=player,
                        kind=PushKind.PRIZE_PAID,
                        tokens=award.tokens,
                        board=target.key,
                    )
                )
            else:
                payout.repeated += 1
