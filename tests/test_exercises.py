"""Every checker accepts a correct answer, reports the stub as "not attempted yet", and
recognises each mistake it claims to recognise, with that mistake's own hint."""

import math

import numpy as np
import pytest

from course_lib.exercises.core import Case, Exercise, Mistake
from course_lib.exercises.dot_product import DOT_EXERCISE, check_dot_product, evaluate_dot_product
from course_lib.exercises.norm import LENGTH_EXERCISE, evaluate_length
from course_lib.exercises.summation import SUM_EXERCISE, evaluate_sum_from_to
from course_lib.exercises.vectors import EMBEDDING_EXERCISE, evaluate_embed


def stub_raises(*args):
    raise NotImplementedError


def stub_passes(*args):
    pass


def stub_ellipsis(*args):
    return ...


# --- correct answers, written the way a learner would -------------------------------------

def embed_ok(sentence, table):
    vectors = []
    for word in sentence:
        vectors.append(table[word])
    return vectors


def length_ok(q):
    total = 0.0
    for x in q:
        total += x * x
    return math.sqrt(total)


def sum_from_to_ok(q, a, b):
    total = 0.0
    for i in range(a, b + 1):
        total += q[i - 1]
    return total


def dot_ok(q, k):
    if len(q) != len(k):
        raise ValueError(f"q has {len(q)} slots but k has {len(k)}")
    total = 0.0
    for i in range(len(q)):
        total += q[i] * k[i]
    return total


CORRECT = [
    (evaluate_embed, embed_ok),
    (evaluate_embed, lambda s, t: np.array([t[w] for w in s])),  # an array is fine too
    (evaluate_length, length_ok),
    (evaluate_length, lambda q: float(np.linalg.norm(q))),
    (evaluate_sum_from_to, sum_from_to_ok),
    (evaluate_sum_from_to, lambda q, a, b: sum(q[a - 1:b])),
    (evaluate_dot_product, dot_ok),
]


@pytest.mark.parametrize(("evaluate", "func"), CORRECT)
def test_a_correct_answer_passes(evaluate, func):
    feedback = evaluate(func)
    assert feedback.passed, str(feedback)
    assert feedback.status == "passed"
    assert str(feedback).startswith("Correct")


ALL_EVALUATES = [evaluate_embed, evaluate_length, evaluate_sum_from_to, evaluate_dot_product]


@pytest.mark.parametrize("evaluate", ALL_EVALUATES)
@pytest.mark.parametrize("stub", [stub_raises, stub_passes, stub_ellipsis])
def test_the_stub_is_not_attempted_yet(evaluate, stub):
    feedback = evaluate(stub)
    assert feedback.status == "not attempted"
    assert str(feedback).startswith("Not attempted yet")
    assert not feedback.passed


# --- each claimed mistake, made on purpose (several ways where a learner would) ------------

def dot_checked(body):
    """Wrap a (wrong) dot product with a correct length check, to isolate one mistake."""
    def func(q, k):
        if len(q) != len(k):
            raise ValueError("different lengths")
        return body(q, k)
    return func


MISTAKES = [
    # notebook 01: embeddings
    (evaluate_embed, "table order", lambda s, t: [v for w, v in t.items() if w in s]),
    (evaluate_embed, "dropped repeats", lambda s, t: [t[w] for w in dict.fromkeys(s)]),
    (evaluate_embed, "flattened", lambda s, t: [x for w in s for x in t[w]]),
    # notebook 02: the norm
    (evaluate_length, "no square root", lambda q: sum(x * x for x in q)),
    (evaluate_length, "no square root", lambda q: sum(x ** 2 for x in q)),
    (evaluate_length, "no squares", lambda q: math.sqrt(sum(q)) if sum(q) >= 0 else 0.0),
    (evaluate_length, "absolute values", lambda q: sum(abs(x) for x in q)),
    (evaluate_length, "squared the sum", lambda q: abs(sum(q))),
    (evaluate_length, "two slots only", lambda q: math.hypot(q[0], q[1])),
    # notebook 03: Σ with slots counted from 1
    (evaluate_sum_from_to, "counted from 0", lambda q, a, b: sum(q[i] for i in range(a, b + 1)
                                                                 if i < len(q))),
    (evaluate_sum_from_to, "left out the last slot",
     lambda q, a, b: sum(q[i - 1] for i in range(a, b))),
    (evaluate_sum_from_to, "started one late", lambda q, a, b: sum(q[a:b])),
    (evaluate_sum_from_to, "added everything", lambda q, a, b: sum(q)),
    # notebook 04: the dot product
    (evaluate_dot_product, "sums without multiplying",
     dot_checked(lambda q, k: sum(a + b for a, b in zip(q, k, strict=False)))),
    (evaluate_dot_product, "sums without multiplying", dot_checked(lambda q, k: sum(q) + sum(k))),
    (evaluate_dot_product, "multiplies the sums", dot_checked(lambda q, k: sum(q) * sum(k))),
    (evaluate_dot_product, "uses only some slots",
     dot_checked(lambda q, k: sum(q[i] * k[i] for i in range(len(q) - 1)))),
    (evaluate_dot_product, "uses only some slots",
     dot_checked(lambda q, k: sum(q[i] * k[i] for i in range(1, len(q))))),
    (evaluate_dot_product, "uses only some slots",
     dot_checked(lambda q, k: sum(q[i] * k[i] for i in range(min(2, len(q)))))),
    (evaluate_dot_product, "returns a vector",
     dot_checked(lambda q, k: [a * b for a, b in zip(q, k, strict=True)])),
    (evaluate_dot_product, "returns a vector", dot_checked(lambda q, k: np.multiply(q, k))),
    (evaluate_dot_product, "does not reject different lengths",
     lambda q, k: sum(a * b for a, b in zip(q, k, strict=False))),
    (evaluate_dot_product, "does not reject different lengths",
     lambda q, k: float(np.dot(q[:len(k)], k[:len(q)]))),
]

HINTS = {m.name: m.hint for ex in (EMBEDDING_EXERCISE, LENGTH_EXERCISE, SUM_EXERCISE,
                                    DOT_EXERCISE) for m in ex.mistakes}


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
    doubled = dot_checked(lambda q, k: 2 * sum(a * b for a, b in zip(q, k, strict=True)))
    feedback = evaluate_dot_product(doubled)
    assert feedback.status == "failed"
    assert feedback.case.args == ([3.0], [-2.0])  # the one-slot case is the smallest
    assert "dot_loop([3], [-2])" in str(feedback)
    assert "returned -12" in str(feedback)
    assert "the answer is -6" in str(feedback)


def test_a_crash_is_reported_with_the_error_not_raised():
    def crashes(q, a, b):
        return q[b]  # IndexError when b is the last slot

    feedback = evaluate_sum_from_to(crashes)
    assert feedback.status == "failed"
    assert "raised IndexError" in str(feedback)


def test_the_embedding_table_is_named_not_printed():
    feedback = evaluate_embed(lambda s, t: [t[w] for w in sorted(s)])
    assert feedback.status == "failed"
    assert "table)" in str(feedback)
    assert "{" not in str(feedback)


def test_missing_rejection_is_shown_when_values_are_also_wrong():
    feedback = evaluate_dot_product(lambda q, k: 3 * sum(a * b for a, b in zip(q, k, strict=False)))
    assert feedback.status == "failed"  # the wrong values come first, not the length hint


def test_check_prints_one_paragraph_and_returns_none(capsys):
    assert check_dot_product(dot_ok) is None
    out = capsys.readouterr().out
    assert out.startswith("Correct")
    assert out.count("\n") == 1


def test_a_function_that_changes_its_input_is_named_and_cannot_spoil_later_cases():
    def pops(q, k):
        if len(q) != len(k):
            raise ValueError("lengths")
        total = 0.0
        while q:
            total += q.pop() * k.pop()
        return total

    feedback = evaluate_dot_product(pops)  # right numbers, but the caller's lists are emptied
    assert feedback.mistake == "changed its input" and "in place" in feedback.message
    assert evaluate_dot_product(dot_ok).passed  # the hidden cases were not spoilt


def test_framework_with_a_custom_exercise():
    square = Exercise("square(x)", [Case((2.0,)), Case((-3.0,))], reference=lambda x: x * x,
                      mistakes=[Mistake("doubled", "you doubled x", imitation=lambda x: 2 * x)])
    assert square.cases[0].expected == 4.0
    assert square.evaluate(lambda x: x ** 2).passed
    assert square.evaluate(lambda x: x + x).mistake == "doubled"
    assert square.evaluate(lambda x: abs(x) * x).status == "failed"
    assert square.evaluate(lambda x: (x, x)).status == "failed"  # shape mismatch is not "same"
