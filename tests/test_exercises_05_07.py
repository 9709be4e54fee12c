"""Checkers of notebooks 05–07: a correct answer passes, the stub is "not attempted yet", and
each mistake a checker claims to recognise gets its own hint when made on purpose."""

import math
import warnings

import numpy as np
import pytest

import course_lib
from course_lib.exercises.matrices import (
    SCORES_EXERCISE,
    STACK_EXERCISE,
    check_scores,
    evaluate_scores,
    evaluate_stack_rows,
)
from course_lib.exercises.softmax import (
    SOFTMAX_EXERCISE,
    check_softmax_rows,
    evaluate_softmax_rows,
    is_large,
)


def stub_raises(*args):
    raise NotImplementedError


def stub_passes(*args):
    pass


def stub_ellipsis(*args):
    return ...


# --- correct answers, written the way a learner would -------------------------------------

def stack_ok(vectors):
    width = len(vectors[0])
    for v in vectors:
        if len(v) != width:
            raise ValueError("different lengths")
    return [list(v) for v in vectors]


def scores_loops(Q, K):
    S = []
    for q in Q:
        row = []
        for k in K:
            row.append(sum(a * b for a, b in zip(q, k, strict=True)))
        S.append(row)
    return S


def softmax_rows_ok(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_rows_loops(scores):
    weights = []
    for row in scores:
        top = max(row)
        exps = [math.exp(x - top) for x in row]
        total = sum(exps)
        weights.append([e / total for e in exps])
    return weights


def softmax_naive_loops(scores):
    weights = []
    for row in scores:
        exps = [math.exp(x) for x in row]  # OverflowError past ~709
        total = sum(exps)
        weights.append([e / total for e in exps])
    return weights


def stable_exp(scores):
    return np.exp(scores - scores.max(axis=-1, keepdims=True))


CORRECT = [
    (evaluate_stack_rows, stack_ok),
    (evaluate_stack_rows, lambda v: np.array(v, dtype=float)),  # NumPy refuses ragged input
    (evaluate_stack_rows, np.vstack),
    (evaluate_scores, lambda Q, K: Q @ K.T),
    (evaluate_scores, lambda Q, K: np.dot(Q, K.T)),
    (evaluate_scores, lambda Q, K: np.einsum("id,jd->ij", Q, K)),
    (evaluate_scores, scores_loops),
    (evaluate_softmax_rows, softmax_rows_ok),
    (evaluate_softmax_rows, softmax_rows_loops),
    (evaluate_softmax_rows, lambda x: course_lib.softmax(x, axis=1)),
]


@pytest.mark.parametrize(("evaluate", "func"), CORRECT)
def test_a_correct_answer_passes(evaluate, func):
    feedback = evaluate(func)
    assert feedback.passed, str(feedback)
    assert str(feedback).startswith("Correct")


ALL_EVALUATES = [evaluate_stack_rows, evaluate_scores, evaluate_softmax_rows]


@pytest.mark.parametrize("evaluate", ALL_EVALUATES)
@pytest.mark.parametrize("stub", [stub_raises, stub_passes, stub_ellipsis])
def test_the_stub_is_not_attempted_yet(evaluate, stub):
    feedback = evaluate(stub)
    assert feedback.status == "not attempted"
    assert str(feedback).startswith("Not attempted yet")


# --- each claimed mistake, made on purpose (several ways where a learner would) ------------

def stack_checked(body):
    """A (wrong) stacking with a correct length check, to isolate one mistake."""
    def func(vectors):
        if len({len(v) for v in vectors}) > 1:
            raise ValueError("different lengths")
        return body(vectors)
    return func


def scores_swapped_loops(Q, K):
    return [[sum(a * b for a, b in zip(q, k, strict=True)) for q in Q] for k in K]


MISTAKES = [
    # notebook 05: stacking
    (evaluate_stack_rows, "stacked as columns", lambda v: np.array(v).T),
    (evaluate_stack_rows, "stacked as columns", np.column_stack),
    (evaluate_stack_rows, "stacked as columns",
     stack_checked(lambda v: [[row[j] for row in v] for j in range(len(v[0]))])),
    (evaluate_stack_rows, "flattened", np.concatenate),
    (evaluate_stack_rows, "flattened", stack_checked(lambda v: [x for row in v for x in row])),
    (evaluate_stack_rows, "does not reject different lengths", lambda v: [list(r) for r in v]),
    # notebook 06: the score grid
    (evaluate_scores, "K Qᵀ instead of Q Kᵀ", lambda Q, K: K @ Q.T),
    (evaluate_scores, "K Qᵀ instead of Q Kᵀ", lambda Q, K: (Q @ K.T).T),
    (evaluate_scores, "K Qᵀ instead of Q Kᵀ", scores_swapped_loops),
    (evaluate_scores, "missing transpose", lambda Q, K: Q @ K),
    (evaluate_scores, "missing transpose", lambda Q, K: np.dot(Q, K)),
    (evaluate_scores, "missing transpose", lambda Q, K: np.matmul(Q, K)),
    (evaluate_scores, "transposed Q instead of K", lambda Q, K: Q.T @ K),
    (evaluate_scores, "element-wise product", lambda Q, K: Q * K),
    (evaluate_scores, "element-wise product", lambda Q, K: np.multiply(Q, K)),
    # notebook 07: softmax of every row
    (evaluate_softmax_rows, "overflows on large scores", course_lib.softmax_naive),
    (evaluate_softmax_rows, "overflows on large scores",
     lambda x: np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)),
    (evaluate_softmax_rows, "overflows on large scores", softmax_naive_loops),
    (evaluate_softmax_rows, "softmax over the wrong axis", lambda x: course_lib.softmax(x, axis=0)),
    (evaluate_softmax_rows, "softmax over the wrong axis",
     lambda x: np.exp(x) / np.exp(x).sum(axis=0, keepdims=True)),  # wrong axis AND naive
    (evaluate_softmax_rows, "normalised over the whole grid",
     lambda x: np.exp(x - x.max()) / np.exp(x - x.max()).sum()),
    (evaluate_softmax_rows, "normalised over the whole grid",
     lambda x: np.exp(x) / np.exp(x).sum()),
    (evaluate_softmax_rows, "row totals without keepdims",
     lambda x: stable_exp(x) / stable_exp(x).sum(axis=-1)),
    (evaluate_softmax_rows, "row totals without keepdims",
     lambda x: np.exp(x) / np.exp(x).sum(axis=1)),
    (evaluate_softmax_rows, "subtracted the largest score of the whole grid",
     lambda x: np.exp(x - x.max()) / np.exp(x - x.max()).sum(axis=-1, keepdims=True)),
    (evaluate_softmax_rows, "no exponential", lambda x: x / x.sum(axis=-1, keepdims=True)),
    (evaluate_softmax_rows, "not normalised", np.exp),
    (evaluate_softmax_rows, "not normalised", stable_exp),
    (evaluate_softmax_rows, "not normalised", lambda x: 2 * softmax_rows_ok(x)),
]

HINTS = {m.name: m.hint for ex in (STACK_EXERCISE, SCORES_EXERCISE, SOFTMAX_EXERCISE)
         for m in ex.mistakes}


@pytest.mark.parametrize(("evaluate", "name", "func"), MISTAKES,
                         ids=[f"{m[0].__name__}-{m[1]}-{i}" for i, m in enumerate(MISTAKES)])
def test_each_mistake_gets_its_own_hint(evaluate, name, func):
    feedback = evaluate(func)
    assert feedback.status == "mistake", str(feedback)
    assert feedback.mistake == name, str(feedback)
    assert str(feedback) == f"Not yet: {HINTS[name]}"


def test_every_claimed_mistake_is_exercised_above():
    claimed = set(HINTS)
    assert claimed, "no mistakes found"
    assert claimed == {name for _, name, _ in MISTAKES}


def test_hints_are_different_from_each_other():
    assert len(set(HINTS.values())) == len(HINTS)


def test_an_unrecognised_mistake_shows_the_smallest_failing_case():
    feedback = evaluate_scores(lambda Q, K: 2 * (Q @ K.T))
    assert feedback.status == "failed"
    assert "scores([[2, -2]], [[5, 1], [-3, 4], [0, -4]])" in str(feedback)


def test_the_scores_checker_uses_shapes_that_tell_the_transposes_apart():
    shapes = [(q.shape, k.shape) for q, k in (c.args for c in SCORES_EXERCISE.cases)]
    assert shapes
    assert any(q[1] == k[0] and q[0] != k[0] for q, k in shapes)  # d_k = m: Q @ K runs
    assert any(q[0] == k[0] for q, k in shapes)  # n = m: Qᵀ K and Q * K run
    assert all(q[1] == k[1] for q, k in shapes)  # every case has a score grid


def test_an_answer_that_changes_its_input_cannot_spoil_later_cases():
    def scribbles(Q, K):
        S = Q @ K.T
        K *= 0  # the learner's function changes its argument
        return S

    assert evaluate_scores(scribbles).passed


def test_check_prints_one_paragraph_and_returns_none(capsys):
    assert check_scores(lambda Q, K: Q @ K.T) is None
    out = capsys.readouterr().out
    assert out.startswith("Correct")
    assert out.count("\n") == 1


def test_the_softmax_checker_has_large_and_ordinary_cases():
    large = [is_large(case) for case in SOFTMAX_EXERCISE.cases]
    assert large
    assert any(large) and not all(large)
    shapes = {case.args[0].shape for case in SOFTMAX_EXERCISE.cases}
    assert any(n > 1 and n != m for n, m in shapes)  # a wrong axis shows in the shape or values


def test_an_overflowing_attempt_prints_no_warning(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning that escapes the checker fails the test
        check_softmax_rows(course_lib.softmax_naive)
    captured = capsys.readouterr()
    assert captured.out.startswith("Not yet: your weights are right for ordinary scores")
    assert captured.err == ""
