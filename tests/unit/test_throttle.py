"""The per-connection rate limit: a burst, then a rate; one "slow down" a second, the rest
dropped; each connection its own budget."""

from yamb_service.game.throttle import ConnectionThrottle


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_throttle_burst_then_one_warning_then_drops() -> None:
    # given a limit of 5 frames at once and 2 a second
    clock = FakeClock()
    throttle = ConnectionThrottle(burst=5, per_second=2, clock=clock)

    # when one connection sends 8 frames at once
    verdicts = [throttle.check("c1") for _ in range(8)]

    # then 5 pass, the 6th is answered "slow down", the others are dropped
    assert verdicts == ["allow"] * 5 + ["warn"] + ["drop"] * 2


def test_throttle_refills_at_its_rate_and_warns_again_after_a_second() -> None:
    # given a connection that spent its burst
    clock = FakeClock()
    throttle = ConnectionThrottle(burst=2, per_second=2, clock=clock)
    assert [throttle.check("c1") for _ in range(3)] == ["allow", "allow", "warn"]

    # when half a second passes, then a whole one
    clock.now += 0.5
    half = [throttle.check("c1") for _ in range(2)]
    clock.now += 1.0
    whole = [throttle.check("c1") for _ in range(4)]

    # then one token came back after half a second (no new warning yet), two after a second
    assert half == ["allow", "drop"]
    assert whole == ["allow", "allow", "warn", "drop"]


def test_throttle_each_connection_has_its_own_budget() -> None:
    # given one connection flooding
    clock = FakeClock()
    throttle = ConnectionThrottle(burst=3, per_second=1, clock=clock)
    for _ in range(50):
        throttle.check("flood")

    # when another connection sends a frame / then it passes
    assert throttle.check("calm") == "allow"
