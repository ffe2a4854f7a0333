"""The anti-spam gate: rate limit, queue bound, manual pause — with a fake clock."""

from __future__ import annotations

import pytest

from mcp_tui.session.elicitation_gate import ElicitationGate, Verdict


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_admits_up_to_the_rate_then_pauses_with_one_notice() -> None:
    clock = Clock()
    gate = ElicitationGate(max_requests=3, window=10, max_pending=100, clock=clock)
    verdicts = []
    for _ in range(3):
        d = gate.arrive()
        verdicts.append(d.verdict)
        gate.release()
    assert verdicts == [Verdict.ADMIT] * 3
    tripped = gate.arrive()
    assert tripped.verdict is Verdict.RATE_LIMITED
    assert tripped.notice and "more than 3" in tripped.notice
    flood = [gate.arrive() for _ in range(200)]
    assert {d.verdict for d in flood} == {Verdict.PAUSED}
    assert all(d.notice is None for d in flood)  # one notice for the whole flood
    assert gate.paused and gate.paused_by_limit
    assert gate.auto_cancelled == 201
    # Time alone does not lift the pause: the user turns asking back on.
    clock.now += 3600
    assert gate.arrive().verdict is Verdict.PAUSED


def test_requests_spread_over_time_are_never_limited() -> None:
    clock = Clock()
    gate = ElicitationGate(max_requests=3, window=10, clock=clock)
    for _ in range(30):
        assert gate.arrive().admitted
        gate.release()
        clock.now += 4  # at most 3 arrivals in any 10 s window
    assert not gate.paused


def test_turning_asking_back_on_lifts_the_limit_and_forgets_old_arrivals() -> None:
    clock = Clock()
    gate = ElicitationGate(max_requests=2, window=10, clock=clock)
    for _ in range(3):
        gate.arrive()
    assert gate.paused_by_limit
    gate.set_paused(False)
    assert not gate.paused
    assert gate.arrive().admitted  # the three old arrivals do not count any more


def test_manual_pause_cancels_without_notices() -> None:
    gate = ElicitationGate(clock=Clock())
    gate.set_paused(True)
    d = gate.arrive()
    assert d.verdict is Verdict.PAUSED and d.notice is None
    gate.set_paused(False)
    assert gate.arrive().admitted


def test_queue_bound_one_notice_per_burst_rearmed_at_half() -> None:
    clock = Clock()
    gate = ElicitationGate(max_requests=1000, window=1, max_pending=4, clock=clock)
    assert all(gate.arrive().admitted for _ in range(4))
    over = [gate.arrive() for _ in range(5)]
    assert [d.verdict for d in over] == [Verdict.QUEUE_FULL] * 5
    assert [d.notice is not None for d in over] == [True, False, False, False, False]
    gate.release()  # 3 pending: still above half, no new notice for the next burst
    assert gate.arrive().admitted
    assert gate.arrive().notice is None
    for _ in range(3):
        gate.release()  # down to 1 pending: re-armed
    assert gate.arrive().admitted
    assert gate.arrive().admitted
    assert gate.arrive().admitted
    again = gate.arrive()
    assert again.verdict is Verdict.QUEUE_FULL and again.notice is not None


def test_release_never_goes_negative() -> None:
    gate = ElicitationGate(clock=Clock())
    gate.release()
    assert gate.pending == 0


@pytest.mark.parametrize("kwargs", [{"max_requests": 0}, {"window": 0}, {"max_pending": 0}])
def test_limits_must_be_positive(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        ElicitationGate(**kwargs)  # type: ignore[arg-type]


def test_requests_arriving_together_get_the_verdicts_one_arrival_each_would() -> None:
    """A task's ``tasks/get`` lists its input requests together (``arrive_many``)."""
    gate = ElicitationGate(max_requests=3, window=10, max_pending=100, clock=Clock())
    admitted, refusal = gate.arrive_many(100_000)
    assert admitted == 3 and refusal is not None
    assert refusal.verdict is Verdict.RATE_LIMITED and "more than 3" in (refusal.notice or "")
    assert gate.paused_by_limit and gate.pending == 3 and gate.auto_cancelled == 99_997
    admitted, refusal = gate.arrive_many(5)
    assert admitted == 0 and refusal is not None and refusal.verdict is Verdict.PAUSED
    assert gate.auto_cancelled == 100_002
    assert gate.arrive_many(0) == (0, None)


def test_requests_arriving_together_fill_the_queue_with_one_notice() -> None:
    gate = ElicitationGate(max_requests=100, window=10, max_pending=2, clock=Clock())
    admitted, refusal = gate.arrive_many(5)
    assert admitted == 2 and refusal is not None and refusal.verdict is Verdict.QUEUE_FULL
    assert refusal.notice and "2 elicitation requests are already waiting" in refusal.notice
    admitted, refusal = gate.arrive_many(1)
    assert admitted == 0 and refusal is not None and refusal.notice is None  # told once
    assert gate.arrive_many(2) == (0, refusal)
    gate.release()
    admitted, refusal = gate.arrive_many(1)
    assert (admitted, refusal) == (1, None)
