"""Shared checks for every exercise checker: each slip is named, nothing wrong is accepted,
and nothing a learner types can crash the checker.

Use in a test module::

    from exercise_helpers import assert_never_crashes, assert_slips_named

    SLIPS = {"no square root": [lambda q: sum(x * x for x in q), ...], ...}

    def test_every_slip_is_named():
        assert_slips_named(evaluate_length, SLIPS)

    def test_never_crashes():
        assert_never_crashes(evaluate_length)                 # a code exercise
        assert_never_crashes(HAND.evaluate, kind="number")     # a by-hand exercise
"""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib.exercises.core import Feedback

STATUSES = {"passed", "not attempted", "mistake", "failed"}
MIN_SLIPS = 10


def assert_slips_named(evaluate, slips, minimum=MIN_SLIPS):
    """Every wrong answer in ``slips`` (slip name -> list of answers that make that slip) is
    named by exactly its own slip; none is accepted. At least ``minimum`` answers in all.

    Because every answer must get its own name, a hint that fires on a different slip fails
    here too: a hint never names a slip the answer did not make.
    """
    answers = [(name, answer) for name, group in slips.items() for answer in group]
    assert len(answers) >= minimum, f"only {len(answers)} typical slips; need {minimum}"
    wrong = []
    for name, answer in answers:
        feedback = evaluate(answer)
        assert isinstance(feedback, Feedback)
        assert feedback.status != "passed", f"accepted a wrong answer that makes {name!r}"
        if feedback.mistake != name:
            wrong.append(f"{name!r} answer {_label(answer)} got {feedback.mistake!r}: "
                         f"{feedback.message}")
    assert not wrong, "slips not named right:\n" + "\n".join(wrong)


def _label(answer):
    return getattr(answer, "__name__", None) or repr(answer)[:60]


def _raiser(exc):
    def learner(*args):
        raise exc
    return learner


def _returner(value):
    return lambda *args: value


def _mutator(*args):
    for a in args:
        if isinstance(a, list) and a:
            a[0] = a[-1]
        elif isinstance(a, np.ndarray) and a.size and a.flags.writeable:
            a.flat[0] = 99.0
    return args[0] if args else None


WEIRD_VALUES = st.one_of(
    st.none(), st.just(...), st.booleans(), st.integers(), st.complex_numbers(),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.lists(st.floats(allow_nan=True), max_size=4),
    st.lists(st.lists(st.integers(-3, 3), max_size=3), max_size=3),  # ragged rows
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)), st.dictionaries(st.text(max_size=2),
                                                                       st.integers()),
    st.builds(lambda n: np.full(n, np.nan), st.integers(0, 3)),
    st.builds(lambda n: np.zeros((n, n + 1)), st.integers(0, 3)),
    st.just(np.array(["a", "b"])), st.just(object()),
)
WEIRD_FUNCTIONS = st.one_of(
    WEIRD_VALUES.map(_returner),
    st.sampled_from([ValueError("x"), TypeError("x"), ZeroDivisionError("x"), IndexError("x"),
                     KeyError("x"), RecursionError("x"), AttributeError("x"),
                     NotImplementedError("x")]).map(_raiser),
    st.just(_mutator), st.just(lambda *args: args), st.just(lambda *args: iter(args)),
    WEIRD_VALUES,  # not a function at all: check_x(answer) instead of check_x(function)
)


def assert_never_crashes(evaluate, kind="function", max_examples=40):
    """Fuzz ``evaluate`` with what a learner might write: it always returns a Feedback."""
    strategy = WEIRD_FUNCTIONS if kind == "function" else WEIRD_VALUES

    @settings(max_examples=max_examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(strategy)
    def run(answer):
        feedback = evaluate(answer)
        assert isinstance(feedback, Feedback) and feedback.status in STATUSES
        assert isinstance(feedback.message, str) and feedback.message

    run()
