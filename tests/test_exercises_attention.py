"""Checker of notebook 09's code exercise, attention(query, key, value): a correct answer passes,
the stub is "not attempted yet", and each typical slip, written the way a beginner writes it,
gets its own name."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.attention import ATTENTION_EXERCISE, check_attention, evaluate_attention


def softmax_rows(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def scaled(query, key):
    return query @ key.T / math.sqrt(query.shape[-1])


def attention_ok(query, key, value):
    return softmax_rows(scaled(query, key)) @ value


def attention_ok_loops(query, key, value):
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


def naive(query, key, value):
    e = np.exp(scaled(query, key))
    return e / e.sum(axis=-1, keepdims=True) @ value


def naive_loops(query, key, value):
    out = []
    for q in query:
        exps = [math.exp(min(np.dot(q, k) / math.sqrt(len(q)), 800)) for k in key]
        exps = [e if e < 1e300 else float("inf") for e in exps]
        out.append(list(np.array(exps) / sum(exps) @ value))
    return out


def max_no_keepdims(query, key, value):
    s = scaled(query, key)
    e = np.exp(s - s.max(axis=-1))
    return e / e.sum(axis=-1, keepdims=True) @ value


def sum_no_keepdims(query, key, value):
    s = scaled(query, key)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1) @ value


def return_in_loop(query, key, value):
    for q in query:
        s = key @ q / math.sqrt(len(q))
        w = np.exp(s - s.max())
        return [w / w.sum() @ value]


def return_in_loop_flat(query, key, value):
    for q in query:
        w = softmax_rows(key @ q / math.sqrt(query.shape[1]))
        return w @ value


def in_place(query, key, value):
    query /= math.sqrt(query.shape[-1])
    return softmax_rows(query @ key.T) @ value


def caret(query, key, value):
    d_k = query.shape[-1]
    return softmax_rows(query @ key.T / d_k ^ 0.5) @ value


def caret_xor(query, key, value):
    d_k = query.shape[-1]
    return softmax_rows(query @ key.T / ((d_k ^ 1) / 2)) @ value


def no_import(query, key, value):
    return softmax_rows(query @ key.T / mth.sqrt(query.shape[-1])) @ value  # noqa: F821


def no_d_k(query, key, value):
    return softmax_rows(query @ key.T / math.sqrt(dk)) @ value  # noqa: F821


def max_columns(query, key, value):
    s = scaled(query, key)
    e = np.exp(s - np.max(s, axis=0))
    return e / e.sum(axis=1, keepdims=True) @ value


SLIPS = {
    "weights applied to K": [lambda q, k, v: softmax_rows(scaled(q, k)) @ k],
    "softmax over the wrong axis": [lambda q, k, v: softmax_rows(scaled(q, k), axis=0) @ v],
    "missing transpose": [lambda q, k, v: softmax_rows(q @ k / math.sqrt(q.shape[-1])) @ v],
    "Q * K.T elementwise": [lambda q, k, v: softmax_rows(q * k.T / math.sqrt(q.shape[1])) @ v],
    "K Qᵀ": [lambda q, k, v: softmax_rows(k @ q.T / math.sqrt(q.shape[-1])) @ v],
    "missing scale": [lambda q, k, v: softmax_rows(q @ k.T) @ v],
    "divided by d_k": [lambda q, k, v: softmax_rows(q @ k.T / q.shape[-1]) @ v],
    "** 1/2 without brackets": [lambda q, k, v: softmax_rows(q @ k.T / q.shape[1] ** 1/2) @ v],
    "d_k read from the values": [lambda q, k, v: softmax_rows(q @ k.T / np.sqrt(v.shape[1])) @ v],
    "scaled by the number of keys": [lambda q, k, v: softmax_rows(q @ k.T / len(k) ** 0.5) @ v],
    "scaled after the softmax": [
        lambda q, k, v: softmax_rows(q @ k.T) / math.sqrt(q.shape[-1]) @ v],
    "scaled twice": [lambda q, k, v: softmax_rows(scaled(q, k)) @ v / math.sqrt(q.shape[-1]),
                     lambda q, k, v: softmax_rows(scaled(q, k)) / np.sqrt(k.shape[1]) @ v],
    "returned the output and the weights": [
        lambda q, k, v: (softmax_rows(scaled(q, k)) @ v, softmax_rows(scaled(q, k)))],
    "no softmax": [lambda q, k, v: scaled(q, k) @ v],
    "max without keepdims": [max_no_keepdims],
    "sum without keepdims": [sum_no_keepdims],
    "not normalised": [lambda q, k, v: np.exp(scaled(q, k)) @ v,
                       lambda q, k, v: np.exp(scaled(q, k) - scaled(q, k).max(-1, keepdims=True))
                       @ v],
    "normalised over the whole grid": [
        lambda q, k, v: np.exp(scaled(q, k) - scaled(q, k).max())
        / np.exp(scaled(q, k) - scaled(q, k).max()).sum() @ v],
    "returned the weights": [lambda q, k, v: softmax_rows(scaled(q, k))],
    "return inside the loop": [return_in_loop, return_in_loop_flat],
    "softmax overflows": [naive, naive_loops],
    "scaled by the number of queries": [
        lambda q, k, v: softmax_rows(q @ k.T / math.sqrt(len(q))) @ v],
    "max over the wrong axis": [max_columns],
    "value @ weights": [lambda q, k, v: v @ softmax_rows(scaled(q, k))],
    "transposed the output": [lambda q, k, v: (softmax_rows(scaled(q, k)) @ v).T,
                              lambda q, k, v: v.T @ softmax_rows(scaled(q, k)).T],
    "^ for **": [caret, caret_xor],
    "a name never defined": [no_import, no_d_k],
    "rounded the result": [lambda q, k, v: np.round(attention_ok(q, k, v), 2),
                           lambda q, k, v: [[round(x, 3) for x in row]
                                            for row in attention_ok(q, k, v)]],
    "changed its input": [in_place],
}


@pytest.mark.parametrize("func", [attention_ok, attention_ok_loops])
def test_correct_answers_pass(func):
    feedback = evaluate_attention(func)
    assert feedback.passed, feedback.message


@pytest.mark.parametrize("stub", [lambda q, k, v: (_ for _ in ()).throw(NotImplementedError),
                                  lambda q, k, v: None])
def test_stub_is_not_attempted(stub):
    assert evaluate_attention(stub).status == "not attempted"


def test_every_slip_is_named():
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        assert_slips_named(evaluate_attention, SLIPS)


def test_every_mistake_has_a_slip_in_the_test():
    assert {m.name for m in ATTENTION_EXERCISE.mistakes} <= set(SLIPS)


def test_naive_softmax_really_overflows_on_the_big_case():
    big = ATTENTION_EXERCISE.cases[-1]
    with np.errstate(over="ignore", invalid="ignore"):
        result = naive(*big.args)
    assert not np.isfinite(result).all()
    assert np.isfinite(big.expected).all()


def test_overflow_prints_no_warning(capsys, recwarn):
    check_attention(naive)
    out = capsys.readouterr()
    assert out.out.startswith("Not yet: right on every case except attention(query of shape 1×4")
    assert out.err == ""
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_cases_include_the_by_hand_example():
    by_hand = ATTENTION_EXERCISE.cases[0]
    e = math.e
    assert np.allclose(by_hand.expected, [[6 * e / (2 * e + 1), 2.0], [2.0, 6 * e / (2 * e + 1)]])


def test_never_crashes():
    assert_never_crashes(evaluate_attention)
