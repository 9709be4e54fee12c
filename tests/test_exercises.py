"""Every exercise of the registry, by the same rules: the worked solution passes, each slip of
its table is named by that slip and by no other, fresh by-hand variants keep every slip apart,
and nothing a learner gives can crash the checker."""

import pytest
from slip_checks import assert_never_crashes, named_as

from course_lib.exercises import CodeExercise, HandExercise, exercise, names
from course_lib.exercises.feedback import NoPrediction

NAMES = names()
CODE = [n for n in NAMES if isinstance(exercise(n), CodeExercise)]
HAND = [n for n in NAMES if isinstance(exercise(n), HandExercise)]
SEEDS = range(1, 9)


def test_the_registry_holds_both_kinds():
    assert CODE and HAND


@pytest.mark.parametrize("name", CODE)
def test_the_worked_solution_passes(name):
    ex = exercise(name)
    feedback = ex.evaluate(ex.solution)
    assert feedback.passed, str(feedback)


def _examples(slip, ex):
    """Learner-style answers that make ``slip``: its own example, or each of its forms."""
    if slip.example is not None:
        return [slip.example]

    def as_learner(form):
        def learner(*args):
            try:
                return form(*args)
            except NoPrediction:  # where the slip cannot be made, the learner is right
                return ex.solution(*args)
        return learner
    return [as_learner(form) for form in slip.forms()]


@pytest.mark.parametrize("name", CODE)
def test_each_slip_is_named_by_itself_alone(name):
    ex = exercise(name)
    assert ex.slips, f"{name} has an empty slip table"
    wrong = []
    for slip in ex.slips:
        for answer in _examples(slip, ex):
            feedback = ex.evaluate(answer)
            if feedback.mistake != slip.name:
                wrong.append(f"  {slip.name!r} got {feedback.mistake!r}: {feedback.message}")
    assert not wrong, f"{name}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("name", HAND)
def test_the_answer_passes_and_each_slip_is_named(name):
    ex = exercise(name)
    variants = [ex] + ([ex.variant(seed) for seed in SEEDS] if ex.draw is not None else [])
    wrong = []
    for variant in variants:
        answer = variant.answer.tolist()
        assert variant.evaluate(answer).passed, f"{variant.title}: the answer is refused"
        values = variant.slip_values()
        assert values or not variant.slips, f"{variant.title}: no slip can be made"
        for slip, value in variant.slip_values(twins=True):
            feedback = variant.evaluate(value.tolist())
            if not (named_as(feedback, slip.name, variant) if slip not in variant.twins
                    else slip.name in (feedback.mistake or "").split(" / ")):
                wrong.append(f"  {variant.title}: {slip.name!r} ({value.tolist()}) got "
                             f"{feedback.mistake!r}: {feedback.message}")
    assert not wrong, f"{name}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("name", [n for n in HAND if exercise(n).draw is not None])
def test_variants_are_fresh_and_repeatable(name):
    ex = exercise(name)
    titles = [ex.variant(seed).title for seed in SEEDS]
    assert titles == [ex.variant(seed).title for seed in SEEDS]  # the same seed, the same
    assert len(set(titles)) >= len(titles) // 2, titles  # mostly new numbers
    assert ex.title not in titles[:1]


@pytest.mark.parametrize("name", NAMES)
def test_never_crashes(name):
    assert_never_crashes(name)
