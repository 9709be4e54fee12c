"""Notebook 09's exercises (course_lib/exercises/attention.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib import scaled_dot_product_attention
from course_lib.exercises import evaluate, exercise
from course_lib.exercises.feedback import NoPrediction


def softmax_rows(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def scaled(query, key):
    return query @ key.T / math.sqrt(query.shape[-1])


def attention_loops(query, key, value):
    d_k = len(query[0])
    out = []
    for q in query:
        scores = [sum(q[c] * k[c] for c in range(d_k)) / math.sqrt(d_k) for k in key]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(e / total * v[c] for e, v in zip(exps, value, strict=True))
                    for c in range(len(value[0]))])
    return out


def blend_overwritten(query, key, value):
    weights = softmax_rows(scaled(query, key))
    out = np.zeros((len(query), value.shape[1]))
    for i in range(len(query)):
        for j in range(len(key)):
            out[i] = weights[i, j] * value[j]  # the slip: = where += adds
    return out


def naive_loops(query, key, value):
    out = []
    for q in query:
        exps = [math.exp(sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(len(q)))
                for k in key]
        out.append([sum(e * v[c] for e, v in zip(exps, value, strict=True)) / sum(exps)
                    for c in range(len(value[0]))])
    return out


def grid_max(query, key, value):
    s = scaled(query, key)
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True) @ value


def sum_no_keepdims(query, key, value):
    s = scaled(query, key)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1) @ value


def max_columns(query, key, value):
    s = scaled(query, key)
    e = np.exp(s - np.max(s, axis=0))
    return e / e.sum(axis=1, keepdims=True) @ value


def in_place(query, key, value):
    query /= math.sqrt(query.shape[-1])
    return softmax_rows(query @ key.T) @ value


def whole_numbers(query, key, value):
    out = np.zeros((query.shape[0], value.shape[1]), dtype=int)
    weights = softmax_rows(scaled(query, key))
    for i in range(query.shape[0]):
        out[i] = weights[i] @ value
    return out


def return_in_loop(query, key, value):
    for q in query:
        w = softmax_rows(key @ q / math.sqrt(len(q)))
        return [w @ value]


def caret(query, key, value):
    d_k = query.shape[-1]
    return softmax_rows(query @ key.T / d_k ^ 0.5) @ value


def subtract_min(query, key, value):
    s = scaled(query, key)
    e = np.exp(s - s.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ value


def test_attention_slips():
    assert_named("attention", {
        "no scaling": [lambda q, k, v: softmax_rows(q @ k.T) @ v],
        "divided by d_k": [lambda q, k, v: softmax_rows(q @ k.T / q.shape[-1]) @ v],
        "d_k / 2 or 2·d_k for √d_k": [lambda q, k, v: softmax_rows(q @ k.T / q.shape[1] ** 1/2)
                                    @ v],
        "√m for √d_k": [lambda q, k, v: softmax_rows(q @ k.T / len(k) ** 0.5) @ v],
        "√d_v for √d_k": [lambda q, k, v: softmax_rows(q @ k.T / np.sqrt(v.shape[1])) @ v],
        "multiplied by √d_k": [lambda q, k, v: softmax_rows(q @ k.T * math.sqrt(q.shape[1]))
                               @ v],
        "scaled after the softmax": [
            lambda q, k, v: softmax_rows(q @ k.T) / math.sqrt(q.shape[-1]) @ v],
        "softmax down the columns": [lambda q, k, v: softmax_rows(scaled(q, k), axis=0) @ v],
        "max down the columns": [max_columns],
        "shapes that do not line up": [sum_no_keepdims],
        "no exponential": [lambda q, k, v: scaled(q, k) / scaled(q, k).sum(
            axis=-1, keepdims=True) @ v],
        "summed along an axis": [lambda q, k, v: (softmax_rows(scaled(q, k)) @ v).sum(axis=-1)],
        "softmax overflows": [lambda q, k, v: np.exp(scaled(q, k)) / np.exp(scaled(q, k)).sum(
            axis=-1, keepdims=True) @ v, naive_loops],
        "one max for the whole grid": [grid_max],
        "weights applied to K": [lambda q, k, v: softmax_rows(scaled(q, k)) @ k],
        "the keys still in the blend": [lambda q, k, v: softmax_rows(scaled(q, k)) @ k @ v,
                                        lambda q, k, v: softmax_rows(scaled(q, k)) @ k.T],
        "equal weights": [lambda q, k, v: softmax_rows(scaled(q, k)).mean(axis=-1, keepdims=True)
                          * v.sum(axis=0), lambda q, k, v: np.ones((len(q), len(k))) / len(k) @ v],
        "a shift that is not the row's largest": [subtract_min],
        "divided by 2": [lambda q, k, v: softmax_rows(q @ k.T / 2) @ v],
        "√(n·d_k) for √d_k": [lambda q, k, v: softmax_rows(q @ k.T / np.sqrt(q.size)) @ v],
        "returned the weights": [lambda q, k, v: softmax_rows(scaled(q, k))],
        "no transpose": [lambda q, k, v: softmax_rows(q @ k / math.sqrt(q.shape[-1])) @ v],
        "value @ weights": [lambda q, k, v: v @ softmax_rows(scaled(q, k))],
        "only the last key's term": [blend_overwritten],
        "stopped after one pass": [return_in_loop],
        "transposed": [lambda q, k, v: (softmax_rows(scaled(q, k)) @ v).T],
        "returned more than the answer": [
            lambda q, k, v: (softmax_rows(scaled(q, k)) @ v, softmax_rows(scaled(q, k)))],
        "^ for a power": [caret],
        "cut to whole numbers": [whole_numbers],
        "rounded to 2 decimals": [lambda q, k, v: np.round(softmax_rows(scaled(q, k)) @ v, 2)],
        "a name never defined": [lambda q, k, v: softmax_rows(q @ k.T / sqrt(4)) @ v],  # noqa: F821
        "changed its input": [in_place],
    })


def test_attention_accepts_other_right_answers():
    assert_passes("attention", [
        attention_loops, lambda q, k, v: scaled_dot_product_attention(q, k, v),
        lambda q, k, v: softmax_rows(q @ k.T * (1 / math.sqrt(k.shape[1]))) @ v])


def test_a_float32_answer_passes():
    assert_passes("attention", [lambda q, k, v: softmax_rows(
        q.astype(np.float32) @ k.T.astype(np.float32) / np.float32(math.sqrt(q.shape[1])))
        @ v.astype(np.float32)])


def exp_of_minus(query, key, value):  # wrong on every case, and nan on the large ones
    e = np.exp(-scaled(query, key))
    return e / e.sum(axis=-1, keepdims=True) @ value


def test_an_answer_wrong_everywhere_is_not_only_an_overflow():
    feedback = evaluate("attention", exp_of_minus)
    assert feedback.status != "passed" and feedback.mistake != "softmax overflows"


def test_every_slip_gives_a_number_on_some_hidden_case():
    """A row whose formula raised on every case would claim any function that raises the
    same kind of error (a read-only input, say): each must give numbers somewhere."""
    ex = exercise("attention")
    assert ex.slips
    for slip in ex.slips:
        for form in slip.forms():
            given = 0
            for case in ex.cases:
                try:
                    with np.errstate(all="ignore"):
                        given += np.asarray(form(*case.args), dtype=float).size > 0
                except (NoPrediction, ValueError, TypeError, OverflowError):
                    continue
            assert given, f"{slip.name!r} gives no number on any hidden case"


def test_the_hidden_cases_tell_the_sizes_apart_and_have_decimals():
    cases = exercise("attention").cases
    shapes = {(q.shape[0], k.shape[0], q.shape[1], v.shape[1]) for q, k, v in
              (c.args for c in cases)}
    assert any(len({n, m, d_k, d_v}) == 4 for n, m, d_k, d_v in shapes)
    assert all(np.all(np.isfinite(c.expected)) for c in cases)
    assert any(np.any(np.asarray(c.expected) % 1 != 0) for c in cases)


def test_the_by_hand_answers_are_the_course_s_attention():
    weights, output = exercise("weights by hand"), exercise("output by hand")
    q, k, v = (np.array(output.givens[x], float) for x in "QKV")
    out, a = scaled_dot_product_attention(q, k, v, return_weights=True)
    assert np.allclose(weights.answer, a[0]) and np.allclose(output.answer, out[0])
    assert np.allclose(exercise("attention").cases[0].expected, out)  # the same tiny example


def test_weights_by_hand_slips():
    e, e2 = math.e, math.e ** 2
    assert_named("weights by hand", {
        "no scaling": [(0.117, 0.016, 0.867)],
        "divided by d_k": [(0.307, 0.186, 0.506)],
        "the scaled scores": [(1, 0, 2)],
        "no exponential": [(0.333, 0, 0.667), (1 / 3, 0, 2 / 3)],
        "not normalised": [(2.718, 1, 7.389), (e, 1, e2)],
        "e⁰ taken as 0": [(0.269, 0, 0.731)],
        "a percentage": [(24.5, 9.0, 66.5), (24.47, 9.0, 66.52)],
        "2ˣ in place of eˣ": [(2 / 7, 1 / 7, 4 / 7), (0.286, 0.143, 0.571)],
        "√m for √d_k": [(0.223, 0.07, 0.707)],
        "scaled after the softmax": [(0.059, 0.008, 0.433)],
        "rounded too early": [(0.24, 0.09, 0.67)],
        "row 2 instead of row 1": [(0.155, 0.422, 0.422)],
        "multiplied by √d_k": [(0.018, 0.0, 0.982)],
        "the keys in reverse order": [(0.665, 0.09, 0.245)],
        "sign turned round": [(-0.245, -0.09, -0.665)],
    })


def test_output_by_hand_slips():
    assert_named("output by hand", {
        "no scaling": [(3.702, 3.499)],
        "the scaled scores as weights": [(10, 8)],
        "equal weights": [(2, 2)],
        "only the best match": [(4, 4)],
        "not normalised": [(34.99, 31.56)],
        "divided by d_k": [(2.64, 2.399)],
        "row 2 instead of row 1": [(2, 2.534)],
        "the numbers in the wrong order": [(2.841, 3.15)],
        "left out key 2": [(3.15, 2.661)],
        "weights rounded to 1 decimal": [(3.2, 3.0), (0.2 * 2 + 0.7 * 4, 0.1 * 2 + 0.7 * 4)],
    })


def test_a_by_hand_answer_of_the_wrong_size_gets_a_sentence():
    said = str(evaluate("output by hand", 5.991))
    assert said.startswith("Not yet") and "2 numbers" in said
