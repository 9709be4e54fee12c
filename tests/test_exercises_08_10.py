"""Checkers of notebooks 08 and 09: a correct answer passes, the stub is "not attempted yet",
and each typical mistake, written the way a learner would write it, gets its own hint."""

import math

import numpy as np
import pytest

from course_lib.exercises.scaling import SCALE_EXERCISE, check_scale_scores, evaluate_scale_scores


def stub_raises(*args):
    raise NotImplementedError


def stub_passes(*args):
    pass


# --- notebook 08: scale_scores(query, key) ------------------------------------------------

def scale_ok(query, key):
    return query @ key.T / math.sqrt(query.shape[-1])


def scale_ok_loops(query, key):
    d_k = len(query[0])
    return [[sum(q[c] * k[c] for c in range(d_k)) / math.sqrt(d_k) for k in key] for q in query]


SCALE_MISTAKES = {
    "missing scale": lambda query, key: query @ key.T,
    "divided by d_k": lambda query, key: query @ key.T / query.shape[1],
    "multiplied by √d_k": lambda query, key: query @ key.T * math.sqrt(query.shape[1]),
    "scaled by the number of keys": lambda query, key: query @ key.T / math.sqrt(len(key)),
    "scaled by the number of queries": lambda query, key: query @ key.T / math.sqrt(len(query)),
    "missing transpose": lambda query, key: np.matmul(query, key) / math.sqrt(query.shape[1]),
}


@pytest.mark.parametrize("func", [scale_ok, scale_ok_loops])
def test_scale_scores_correct_answers_pass(func):
    feedback = evaluate_scale_scores(func)
    assert feedback.passed, feedback.message
    assert feedback.message.startswith("Correct")


@pytest.mark.parametrize("stub", [stub_raises, stub_passes])
def test_scale_scores_stub_is_not_attempted(stub):
    feedback = evaluate_scale_scores(stub)
    assert feedback.status == "not attempted"
    assert feedback.message.startswith("Not attempted yet")


@pytest.mark.parametrize("name", sorted(SCALE_MISTAKES))
def test_scale_scores_each_mistake_gets_its_hint(name):
    feedback = evaluate_scale_scores(SCALE_MISTAKES[name])
    assert feedback.status == "mistake", feedback.message
    assert feedback.mistake == name
    hint = next(m.hint for m in SCALE_EXERCISE.mistakes if m.name == name)
    assert feedback.message == f"Not yet: {hint}"


def test_scale_scores_every_mistake_is_tested():
    assert SCALE_EXERCISE.mistakes
    assert {m.name for m in SCALE_EXERCISE.mistakes} == set(SCALE_MISTAKES)


def test_scale_scores_hints_name_the_square_root():
    hints = {m.name: m.hint for m in SCALE_EXERCISE.mistakes}
    assert "√d_k" in hints["divided by d_k"] and "1/√d_k" in hints["divided by d_k"]
    assert "query.shape[-1]" in hints["missing scale"]


def test_scale_scores_unknown_mistake_shows_smallest_case():
    feedback = evaluate_scale_scores(lambda query, key: query @ key.T / 3.0)
    assert feedback.status == "failed"
    assert "query of shape 2×1, key of shape 3×1" in feedback.message


def test_scale_scores_inputs_cannot_be_spoiled():
    def in_place(query, key):
        query *= 2  # a learner's in-place edit must not change later cases
        return query @ key.T

    feedback = evaluate_scale_scores(in_place)
    assert not feedback.passed
    assert all(not c.args[0].flags.writeable for c in SCALE_EXERCISE.cases)


def test_check_scale_scores_prints_one_paragraph(capsys):
    check_scale_scores(scale_ok)
    out = capsys.readouterr().out
    assert out.startswith("Correct") and out.count("\n") == 1
