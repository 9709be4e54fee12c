"""What every exercise test asserts, written once.

A test module named after an exercise module lists wrong answers written the way beginners
write them, each with the slip (or relation) it must be named by::

    from slip_checks import assert_named

    def test_length_slips():
        assert_named("length", {"no square root": [lambda q: sum(x * x for x in q)], ...})

Every answer must be named by exactly its own slip — so a hint that names a slip the answer
did not make fails too — and none may be accepted. A by-hand exercise's twins (rows known to
give another row's number) may be named beside it, never instead of it.
"""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib.exercises import evaluate, exercise
from course_lib.exercises.feedback import Feedback

STATUSES = {"passed", "not attempted", "mistake", "failed"}
MIN_ANSWERS = 5  # learner-style wrong answers per exercise, at least


def named_as(feedback, slip, ex):
    """``feedback`` names ``slip``, alone or beside the exercise's twins only."""
    twins = {t.name for t in getattr(ex, "twins", [])}
    if feedback.mistake == slip or not twins:
        return feedback.mistake == slip
    names = (feedback.mistake or "").split(" / ")
    return slip in names and all(n == slip or n in twins for n in names)


def assert_named(name, answers, minimum=MIN_ANSWERS):
    """Every answer in ``answers`` (slip name -> answers that make it) gets that name alone."""
    pairs = [(slip, answer) for slip, group in answers.items() for answer in group]
    assert len(pairs) >= minimum, f"{name}: only {len(pairs)} learner-style wrong answers"
    wrong = []
    for slip, answer in pairs:
        feedback = evaluate(name, answer)
        assert feedback.status != "passed", f"{name}: accepted an answer that makes {slip!r}"
        if not named_as(feedback, slip, exercise(name)):
            wrong.append(f"  {slip!r} answer {_label(answer)} got {feedback.mistake!r}: "
                         f"{feedback.message}")
    assert not wrong, f"{name}: slips not named right:\n" + "\n".join(wrong)


def assert_passes(name, answers):
    """Each answer (right ones written in other styles) is accepted. Text ("3/4") is what the
    "another one" box sends, so it goes to the exercise as the box does: typed in a code cell,
    a number in quotes is named instead (tests/test_exercise_framework.py)."""
    assert answers
    for answer in answers:
        text = isinstance(answer, str)
        feedback = exercise(name).evaluate(answer) if text else evaluate(name, answer)
        assert feedback.passed, f"{name}: a right answer {_label(answer)} got: {feedback}"


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
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
    st.dictionaries(st.text(max_size=2), st.integers()),
    st.builds(lambda n: np.full(n, np.nan), st.integers(0, 3)),
    st.builds(lambda n: np.zeros((n, n + 1)), st.integers(0, 3)),
    st.just(np.array(["a", "b"])), st.just(object()),
)
WEIRD_FUNCTIONS = st.one_of(
    WEIRD_VALUES.map(_returner),
    st.sampled_from([ValueError("x"), TypeError("x"), ZeroDivisionError("x"), IndexError("x"),
                     KeyError("x"), RecursionError("x"), AttributeError("x"), NameError("x"),
                     NotImplementedError("x")]).map(_raiser),
    st.just(_mutator), st.just(lambda *args: args), st.just(lambda *args: iter(args)),
    st.just(lambda *args: (x for x in args)), st.just(lambda *args: print(args)),
    WEIRD_VALUES,  # not a function at all: check(name, answer) instead of check(name, function)
)


def assert_never_crashes(name, max_examples=40):
    """Fuzz the checker with what a learner might give it: it always returns a Feedback."""
    kind = "number" if hasattr(exercise(name), "givens") else "function"
    strategy = WEIRD_FUNCTIONS if kind == "function" else WEIRD_VALUES

    @settings(max_examples=max_examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(strategy)
    def run(answer):
        feedback = evaluate(name, answer)
        assert isinstance(feedback, Feedback) and feedback.status in STATUSES
        assert isinstance(feedback.message, str) and feedback.message

    run()
