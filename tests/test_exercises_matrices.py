"""Notebook 05's exercises (course_lib/exercises/matrices.py): wrong answers written the way
beginners write them, each named by its own slip or relation, right answers in other styles
accepted; and the general relations added for them (a refusal turned round or refusing
everything, the right numbers in another order, running totals)."""

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate, exercise
from course_lib.exercises.engine import TUPLE


def _sizes(Q, K, V):
    return (Q.shape[0], K.shape[0], Q.shape[1], V.shape[1])


def refusing(test, answer=_sizes, says=None):
    """A learner's attention_sizes: raise ValueError when ``test`` holds, else ``answer``."""
    def attention_sizes(Q, K, V):
        if test(Q, K, V):
            raise ValueError(says or f"the sizes {Q.shape}, {K.shape}, {V.shape} do not fit")
        return answer(Q, K, V)
    return attention_sizes


def fits(Q, K, V):
    return Q.shape[1] == K.shape[1] and K.shape[0] == V.shape[0]


def unpacks_four_from_one_shape(Q, K, V):
    n, m, d_k, d_v = Q.shape  # ValueError from Python itself: a shape holds two sizes
    return (n, m, d_k, d_v)


def prints_the_problem(Q, K, V):
    if not fits(Q, K, V):
        print("the sizes do not fit")
        return None
    return _sizes(Q, K, V)


def asserts(Q, K, V):
    assert fits(Q, K, V), "the sizes do not fit"
    return _sizes(Q, K, V)


def test_attention_sizes_slips():
    assert_named("attention_sizes", {
        "sizes in another order": [lambda Q, K, V: Q.shape + V.shape,
                                   refusing(lambda *g: not fits(*g), lambda Q, K, V: (
                                       Q.shape[0], Q.shape[1], K.shape[0], V.shape[1]))],
        "Q's rows as m": [refusing(lambda *g: not fits(*g), lambda Q, K, V: (
            Q.shape[0], Q.shape[0], Q.shape[1], V.shape[1]))],
        "V's width as m": [refusing(lambda *g: not fits(*g), lambda Q, K, V: (
            Q.shape[0], V.shape[1], Q.shape[1], V.shape[1]))],
        "K's width as d_v": [refusing(lambda *g: not fits(*g), lambda Q, K, V: (
            len(Q), len(K), len(Q[0]), len(K[0])))],
        "returned the shapes": [refusing(lambda *g: not fits(*g),
                                         lambda Q, K, V: [Q.shape, K.shape, V.shape])],
        "returned instead of raising": [_sizes, prints_the_problem,
                                        refusing(lambda Q, K, V: Q.shape[1] != K.shape[1]
                                                 and K.shape[0] != V.shape[0])],
        "no check of V's rows": [refusing(lambda Q, K, V: Q.shape[1] != K.shape[1])],
        "no check of K's width": [refusing(lambda Q, K, V: K.shape[0] != V.shape[0])],
        "refused n ≠ m": [refusing(lambda Q, K, V: Q.shape != K.shape or not fits(Q, K, V)),
                          refusing(lambda Q, K, V: Q.shape[1] != K.shape[1]
                                   or V.shape[0] != Q.shape[0])],
        "refused d_k ≠ d_v": [refusing(lambda Q, K, V: K.shape != V.shape)],
        "the test before raise turned round": [refusing(fits)],
        "refused every case": [refusing(lambda Q, K, V: V.shape[0] != K.shape[1]
                                        or K.shape[1] != Q.shape[1])],
        "raised another kind of error": [asserts],
        "a message that names no size": [refusing(lambda *g: not fits(*g), says="bad"),
                                          refusing(lambda *g: not fits(*g), says="sizes differ")],
        "returned the message": [lambda Q, K, V: _sizes(Q, K, V) if fits(Q, K, V)
                                 else "the sizes do not fit"],
        "the right numbers in another order": [refusing(lambda *g: not fits(*g), lambda Q, K, V: (
            K.shape[0], Q.shape[0], Q.shape[1], V.shape[1]))],
    })


def test_attention_sizes_accepts_other_right_answers():
    assert_passes("attention_sizes", [
        refusing(lambda *g: not fits(*g)),
        refusing(lambda *g: not fits(*g), lambda Q, K, V: (len(Q), len(V), len(K[0]), len(V[0])))])
    assert_named("attention_sizes", {TUPLE: [
        refusing(lambda *g: not fits(*g), lambda Q, K, V: [len(Q), len(V), len(K[0]), len(V[0])]),
        refusing(lambda *g: not fits(*g), lambda Q, K, V: np.array(_sizes(Q, K, V)))]},
                 minimum=1)  # the prompt asks for (n, m, d_k, d_v): a list or array is named


def test_a_built_in_value_error_is_not_taken_for_a_refusal():
    feedback = evaluate("attention_sizes", unpacks_four_from_one_shape)
    assert feedback.status == "failed" and "not enough values to unpack" in feedback.message


def test_the_cases_tell_the_four_sizes_apart():
    sizes = [_sizes(*c.args) for c in exercise("attention_sizes").cases if c.raises is None]
    assert sizes and any(len(set(s)) == 4 for s in sizes)
    assert any(n != m for n, m, _, _ in sizes) and any(n == m for n, m, _, _ in sizes)
    assert any(d_k != d_v for *_, d_k, d_v in sizes) and any(d_k == d_v for *_, d_k, d_v in sizes)


def scores_appended_in_loop(q, K):
    scores = []
    for k in K:
        scores.append(q @ k)
        return scores


def scores_running_total(q, K):
    scores, total = [], 0.0
    for k in K:
        total += q @ k
        scores.append(total)
    return scores


def scores_whole_numbers(q, K):
    scores = np.zeros(len(K), dtype=int)
    for j in range(len(K)):
        scores[j] = q @ K[j]
    return scores


def scores_sized_by_q(q, K):
    scores = np.zeros(len(q))
    for j in range(len(K)):
        scores[j] = q @ K[j]
    return scores


_KEPT = []  # a learner's list made outside the function


def scores_kept_outside(q, K):
    for k in K:
        _KEPT.append(q @ k)
    return _KEPT


def test_query_scores_slips():
    assert_named("query_scores", {
        "the columns of K": [lambda q, K: q @ K, lambda q, K: [q @ K[:, j] for j in range(len(q))]],
        "added up the scores": [lambda q, K: sum(q @ k for k in K), lambda q, K: (q * K).sum()],
        "products not added": [lambda q, K: [q * k for k in K]],
        "added along the wrong axis": [lambda q, K: (q * K).sum(axis=0)],
        "one score per slot": [lambda q, K: [q @ K[j] for j in range(len(q))]],
        "the wrong shape": [lambda q, K: q @ K[0]],
        "stopped after one pass": [scores_appended_in_loop],
        "divided by the lengths": [lambda q, K: [q @ k / (np.linalg.norm(q) * np.linalg.norm(k))
                                                 for k in K]],
        "multiplied the sums": [lambda q, K: [sum(q) * sum(k) for k in K]],
        "running totals": [scores_running_total],
        "cut to whole numbers": [scores_whole_numbers],
        "first entry left out": [lambda q, K: [q @ K[j] for j in range(1, len(K))]],
        "last entry left out": [lambda q, K: [q @ K[j] for j in range(len(K) - 1)]],
        "a position past the end": [scores_sized_by_q,
                                    lambda q, K: [q @ K[j] for j in range(1, len(K) + 1)]],
        "kept earlier calls' scores": [scores_kept_outside],
    })


def test_query_scores_accepts_other_right_answers():
    assert_passes("query_scores", [lambda q, K: K @ q, lambda q, K: q @ K.T,
                                   lambda q, K: [sum(q[t] * k[t] for t in range(len(q)))
                                                 for k in K]])


def test_numbers_in_k_by_hand_slips():
    assert_named("numbers in K by hand", {
        "K shaped like Q": [24, "24"], "K shaped like V": [21], "rows of Q, width of V": [12],
        "the size of the score grid": [28], "the two widths": [18], "one size alone": [7, 6],
        "added rows and columns": [13], "counted Q and V": [45],
        "K as a square": [49], "sign turned round": [-42], "three sizes multiplied": [126, 168],
        "added every size": [20], "K as d_k × d_k": [36], "K as n × n": [16],
    })
    assert evaluate("numbers in K by hand", 42).passed


def test_a_fresh_variant_names_the_notebooks_answer():
    variants = [exercise("numbers in K by hand").variant(seed) for seed in range(1, 9)]
    named = [v.evaluate(42).mistake for v in variants if v.answer != 42]
    assert named and named.count("the notebook's numbers") >= len(named) // 2, named
