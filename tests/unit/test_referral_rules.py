"""The rules of referral (E7), pure: codes, schemes and their weeks, which games qualify, taking
a referrer, choosing a scheme, and which weeks a run pays."""

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from yamb.progression.errors import ProgressionError
from yamb.progression.referral import (
    CODE_ALPHABET,
    CODE_LENGTH,
    DEFAULT_SCHEME,
    PICK_WINDOW,
    SCHEMES,
    VERIFICATION_REWARD,
    Referral,
    check_choice,
    check_referrer,
    due_weeks,
    may_qualify,
    new_code,
    normal_code,
    qualifies,
    scheme_in_force,
    scheme_weeks,
    settled,
    skipped_in,
    worth_marking,
)
from yamb.results.periods import week_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings

# Monday of ISO week 2026-W10, 09:00 UTC: the invitee's first qualifying ranked game.
FIRST = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
RANKED = GameSettings(ranked=True, preset=1, players=3, turn_seconds=60)


def _week(n: int) -> str:
    """The id of the n-th week of a scheme started at FIRST (1: its first)."""
    return week_of(FIRST + timedelta(weeks=n - 1)).id


def _game(
    *players: str,
    ranked: bool = True,
    bot: str | None = None,
    at: datetime = FIRST,
    turns: int = 26,
) -> GameResult:
    settings = RANKED if ranked else GameSettings(players=len(players) or 1)
    return GameResult(
        game_id="g1",
        settings=settings,
        ended_at=at,
        winners=[players[0]],
        players=[
            PlayerResult(
                player_id=p,
                total=100,
                full=True,
                left=False,
                turns=turns,
                bot=bot if index == len(players) - 1 else None,
            )
            for index, p in enumerate(players)
        ],
    )


def _referral(**fields: object) -> Referral:
    data: dict[str, object] = {
        "invitee": "eve",
        "inviter": "ana",
        "taken_at": FIRST - timedelta(days=3),
    }
    data.update(fields)
    return Referral.model_validate(data)


def _started(**fields: object) -> Referral:
    return _referral(started_at=FIRST, choose_by=FIRST + PICK_WINDOW, **fields)


# ----------------------------------------------------------------------------- codes


def test_referral_code_new_is_eight_characters_of_the_alphabet() -> None:
    # given / when many codes drawn
    codes = [new_code() for _ in range(200)]

    # then each is 8 characters without look-alikes, and they differ
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("01OILU") & set(CODE_ALPHABET)
    assert len(set(codes)) == len(codes)


@given(st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH))
def test_referral_code_reads_case_insensitively_and_trimmed(code: str) -> None:
    # given a code as a person may type it / when read / then it is the stored code
    assert normal_code(f"  {code.lower()} ") == code


@pytest.mark.parametrize("text", ["", "ABCDEFG", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFGO", "ABC-EFGH"])
def test_referral_code_malformed_is_no_code(text: str) -> None:
    # given text of the wrong length or with a character outside the alphabet / when read
    # then it is no code (no player can have it: nothing to read)
    assert normal_code(text) is None


# ----------------------------------------------------------------------------- schemes


def test_referral_schemes_are_the_products() -> None:
    # given / when the configuration / then 4 x 50 and 52 x 25, the short one by default
    assert (SCHEMES["short"].weeks, SCHEMES["short"].tokens, SCHEMES["short"].most) == (4, 50, 200)
    assert (SCHEMES["long"].weeks, SCHEMES["long"].tokens, SCHEMES["long"].most) == (52, 25, 1300)
    assert DEFAULT_SCHEME == "short"
    assert VERIFICATION_REWARD == 25
    assert PICK_WINDOW.days == 7


def test_referral_scheme_weeks_are_consecutive_iso_weeks_from_the_first_game() -> None:
    # given a first game on the Wednesday of 2026's last ISO week (2026-W53)
    first = datetime(2026, 12, 30, 23, 59, tzinfo=UTC)

    # when the short scheme's weeks are listed
    weeks = scheme_weeks(first, 4)

    # then they run over the year's end, Monday to Monday
    assert [w.id for w in weeks] == ["2026-W53", "2027-W01", "2027-W02", "2027-W03"]
    assert weeks[0].start == datetime(2026, 12, 28, tzinfo=UTC)
    assert all(a.end == b.start for a, b in itertools.pairwise(weeks))


# ----------------------------------------------------------------------------- games


def test_referral_game_with_someone_else_qualifies() -> None:
    # given eve (invited by ana) at a ranked table of people with ben / when judged
    # then it counts, with or without her inviter at it
    assert qualifies(_game("eve", "ben"), _started())
    assert qualifies(_game("eve", "ana", "ben"), _started())


@pytest.mark.parametrize(
    ("game", "why"),
    [
        (_game("eve", "ben", ranked=False), "unranked"),
        (_game("eve", "ben", bot="easy"), "a bot at the table"),
        (_game("eve"), "solo"),
        (_game("eve", "ana"), "only the inviter and the invitee"),
        (_game("ben", "cleo"), "without the invitee"),
        (_game("eve", "ben", turns=0), "the invitee played no turn"),
        (_game("eve", "ben", at=FIRST - timedelta(days=4)), "ended before the referrer"),
    ],
)
def test_referral_game_that_does_not_qualify(game: GameResult, why: str) -> None:
    # given a game of one of these kinds / when judged for eve / then it does not count
    assert not qualifies(game, _started()), why


def test_referral_game_may_qualify_needs_no_referral_for_the_table() -> None:
    # given / when tables are judged before anything is read
    # then a ranked table of two people or more may; unranked, bot and solo tables never do
    assert may_qualify(_game("eve", "ben"))
    assert not may_qualify(_game("eve", "ben", ranked=False))
    assert not may_qualify(_game("eve", "ben", bot="easy"))
    assert not may_qualify(_game("eve"))
    cancelled = _game("eve", "ben").model_copy(update={"outcome": "cancelled"})
    assert not may_qualify(cancelled)  # counts for nobody (rules.md 8)


def test_referral_week_worth_marking_within_the_schemes_reach() -> None:
    # given a started referral, no scheme chosen; and one with the short scheme chosen
    open_choice, short = _started(), _started(scheme="short")
    during, after = FIRST + timedelta(days=1), FIRST + PICK_WINDOW

    # when weeks are judged / then any of the longest scheme's weeks while a scheme can be
    # chosen, only the default's once the window is over, only the chosen scheme's after a
    # choice; never a week before the start or one marked already
    assert worth_marking(open_choice, _week(52), during)
    assert not worth_marking(open_choice, _week(53), during)
    assert worth_marking(open_choice, _week(4), after)
    assert not worth_marking(open_choice, _week(5), after)  # the default is 4 weeks
    assert worth_marking(short, _week(4), during) and not worth_marking(short, _week(5), during)
    assert not worth_marking(open_choice, _week(0), during)
    assert not worth_marking(_started(played=frozenset({_week(1)})), _week(1), during)
    assert not worth_marking(_referral(), _week(1), during)


# ----------------------------------------------------------------------------- referrers


def test_referral_check_referrer_new_or_repeat() -> None:
    # given eve, invited by nobody yet, or by ana already
    # when ana's code is taken / then it is new, or the same one again (a repeat, not an error)
    assert check_referrer("eve", "ana", None, played_people=False) is True
    assert check_referrer("eve", "ana", _referral(), played_people=True) is False


@pytest.mark.parametrize(
    ("inviter", "existing", "played", "code"),
    [
        ("eve", None, False, "own_referral_code"),
        ("ben", _referral(), False, "already_referred"),
        ("ana", None, True, "referral_closed"),
    ],
)
def test_referral_check_referrer_refused(
    inviter: str, existing: Referral | None, played: bool, code: str
) -> None:
    # given eve's state / when `inviter`'s code is taken / then it is refused with its code
    with pytest.raises(ProgressionError) as refused:
        check_referrer("eve", inviter, existing, played_people=played)
    assert refused.value.code == code


# ----------------------------------------------------------------------------- schemes chosen


def test_referral_choice_within_the_window() -> None:
    # given a referral started at FIRST / when ana chooses the long scheme a minute before the
    # window closes / then it is hers
    chosen = check_choice(_started(), "long", FIRST + PICK_WINDOW - timedelta(minutes=1))
    assert chosen == SCHEMES["long"]


@pytest.mark.parametrize(
    ("referral", "scheme", "after", "code"),
    [
        (_started(), "medium", timedelta(0), "unknown_scheme"),
        (_referral(), "long", timedelta(0), "no_scheme_to_choose"),
        (_started(scheme="short"), "long", timedelta(0), "scheme_chosen"),
        (_started(), "long", PICK_WINDOW, "scheme_window_over"),
        (_started(paid=frozenset({_week(1)})), "long", timedelta(days=1), "scheme_window_over"),
    ],
)
def test_referral_choice_refused(
    referral: Referral, scheme: str, after: timedelta, code: str
) -> None:
    # given a referral in some state / when a scheme is chosen `after` the first game
    # then the choice is refused with its code
    with pytest.raises(ProgressionError) as refused:
        check_choice(referral, scheme, FIRST + after)
    assert refused.value.code == code


def test_referral_scheme_in_force_chosen_default_or_open() -> None:
    # given / when / then: none before the start and while the window is open; the default
    # once it is over; a chosen one at once
    assert scheme_in_force(_referral(), FIRST + timedelta(days=30)) is None
    assert scheme_in_force(_started(), FIRST + PICK_WINDOW - timedelta(seconds=1)) is None
    assert scheme_in_force(_started(), FIRST + PICK_WINDOW) == SCHEMES[DEFAULT_SCHEME]
    assert scheme_in_force(_started(scheme="long"), FIRST) == SCHEMES["long"]


# ----------------------------------------------------------------------------- paying


def test_referral_due_weeks_pay_played_weeks_up_to_the_week_once() -> None:
    # given the short scheme, weeks 1, 2 and 4 played, week 1 paid already
    played = frozenset({_week(1), _week(2), _week(4)})
    referral = _started(scheme="short", played=played, paid=frozenset({_week(1)}))
    week4 = week_of(FIRST + timedelta(weeks=3))
    assert week4.start is not None and week4.end is not None

    # when the run after week 3, then after week 4
    after3 = due_weeks(referral, week_of(FIRST + timedelta(weeks=2)), week4.start)
    after4 = due_weeks(referral, week4, week4.end)

    # then week 2 is due after week 3 (50), and weeks 2 and 4 after week 4; never week 1 again
    assert [(d.week, d.tokens) for d in after3] == [(_week(2), 50)]
    assert [d.week for d in after4] == [_week(2), _week(4)]


def test_referral_due_weeks_wait_while_the_scheme_can_be_chosen() -> None:
    # given a referral whose week 1 was played, the window still open at the week's end
    referral = _started(played=frozenset({_week(1)}))
    week1 = week_of(FIRST)
    assert week1.end is not None and week1.end < FIRST + PICK_WINDOW

    # when the run after week 1, then the run after week 2 (the window over: the default)
    early = due_weeks(referral, week1, week1.end)
    later = due_weeks(referral, week_of(FIRST + timedelta(weeks=1)), week1.end + PICK_WINDOW)

    # then nothing first, week 1 at the default scheme's amount next
    assert early == [] and [(d.week, d.tokens) for d in later] == [(_week(1), 50)]


def test_referral_due_weeks_never_a_week_not_ended_or_beyond_the_scheme() -> None:
    # given the short scheme with weeks 1 and 5 played
    referral = _started(scheme="short", played=frozenset({_week(1), _week(5)}))

    # when a run for week 1 comes before it ended, and one for week 5 after it
    running = due_weeks(referral, week_of(FIRST), FIRST + timedelta(days=1))
    week5 = week_of(FIRST + timedelta(weeks=4))
    assert week5.end is not None
    beyond = due_weeks(referral, week5, week5.end)

    # then a week still running is not paid, and week 5 is not the scheme's
    assert running == [] and [d.week for d in beyond] == [_week(1)]


def test_referral_skipped_and_settled() -> None:
    # given the short scheme, weeks 1, 2 and 4 played
    referral = _started(scheme="short", played=frozenset({_week(1), _week(2), _week(4)}))
    week3, week4 = week_of(FIRST + timedelta(weeks=2)), week_of(FIRST + timedelta(weeks=3))
    assert week4.end is not None

    # when / then week 3 was skipped, week 4 not; settled a grace week after week 4's end only
    assert skipped_in(referral, week3, week4.end) and not skipped_in(referral, week4, week4.end)
    assert not settled(referral, week4, week4.end)
    assert settled(referral, week4, week4.end + timedelta(days=7))
    assert not settled(referral, week3, week4.end + timedelta(days=7))
