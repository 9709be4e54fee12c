"""course_lib.timing: the best of several timed calls (what it calls, not how fast)."""

from course_lib.timing import best_time


def test_best_time_runs_sync_after_every_call_and_fills_the_budget():
    events = []
    best = best_time(events.append, "call", repeats=3, sync=lambda: events.append("sync"))
    assert events == ["call", "sync"] * 3
    assert best >= 0
    count = []
    best_time(count.append, 1, repeats=1, budget=0.01)
    assert len(count) > 1  # one call of list.append takes far less than 10 ms


def test_best_time_passes_keywords_to_the_call():
    seen = []
    best_time(lambda *args, **kwargs: seen.append((args, kwargs)), 1, is_causal=True, repeats=2)
    assert seen == [((1,), {"is_causal": True})] * 2
