"""Pieces of the backward-pass checkers of notebook 13: the hidden rows of
softmax_backward_row and their imitations, the step-by-step ∂L/∂Q with one slip switched on
by a keyword, and its random cases. This module defines no exercise (its name starts with _)."""

import math

import numpy as np

from .. import softmax
from .core import Case, frozen_array


def row_cases():
    rng = np.random.default_rng(13)
    cases = [([0.5, 0.5], [1.0, 0.0]), ([0.2, 0.3, 0.5], [1.0, -2.0, 0.5])]
    for m in (3, 4, 6):
        a = softmax(rng.normal(scale=1.5, size=m))
        cases.append((a.tolist(), rng.standard_normal(m).tolist()))
    cases.append(([1.0, 0.0, 0.0], [2.0, -1.0, 3.0]))  # saturated: nothing gets through
    cases.append(([0.25, 0.25, 0.25, 0.25], [1.0, 1.0, 1.0, 1.0]))  # same gradient: no change
    return [Case(args) for args in cases]


def row_slip(formula):
    """An imitation from a formula of the arrays a, g and the row total t = Σⱼ aⱼgⱼ."""
    def imitation(a, g):
        a, g = np.asarray(a, float), np.asarray(g, float)
        return formula(a, g, float(a @ g))
    return imitation


def row_first_only(outcomes):
    """The answer is the right first entry alone (a number or a one-entry list)."""
    telling = None
    for outcome in outcomes:
        try:
            got = np.ravel(np.asarray(outcome.value, dtype=float))
            expected = np.asarray(outcome.case.expected, dtype=float)
        except Exception:
            return None
        if outcome.error is not None or got.size != 1 or not np.isclose(got[0], expected[0]):
            return None
        telling = telling or (outcome if expected.size > 1 else None)
    return telling


def query_gradient(q, k, v, g, divisor="√d_k", forward_scale=True, step2="right", grad_a_t=False,
                   grad_s_t=False, times="K", axis=-1):
    """∂L/∂Q step by step; the keywords make one slip each."""
    q, k, v, g = (np.asarray(a, float) for a in (q, k, v, g))
    d_k, d_v = q.shape[1], v.shape[1]
    scale = 1 / {"√d_k": math.sqrt(d_k), "d_k": d_k, "1/√d_k": 1 / math.sqrt(d_k),
                 "√d_v": math.sqrt(d_v), "1": 1.0, "2·d_k": 2 * d_k, "d_k/2": d_k / 2,
                 "√m": math.sqrt(k.shape[0])}[divisor]
    forward = {True: 1 / math.sqrt(d_k), False: 1.0, "√d_v": 1 / math.sqrt(d_v),
               "d_k": 1 / d_k}[forward_scale]
    weights = softmax(q @ k.T * forward, axis)  # (n, m)
    grad_a = (v @ g.T) if grad_a_t else g @ v.T  # (n, m)
    row_total = (weights * grad_a).sum(axis=1, keepdims=True)  # (n, 1)
    grad_s = {"right": lambda: weights * (grad_a - row_total),  # (n, m)
              "sign": lambda: weights * (row_total - grad_a),
              "no total": lambda: weights * grad_a, "skipped": lambda: grad_a,
              "unweighted": lambda: weights * (grad_a - grad_a.sum(axis=1, keepdims=True)),
              "mean": lambda: weights * (grad_a - grad_a.mean(axis=1, keepdims=True)),
              "axis 0": lambda: weights * (grad_a - (weights * grad_a).sum(axis=0)),
              "no keepdims": lambda: weights * (grad_a - row_total[:, 0])}[step2]()
    grad_s = grad_s.T if grad_s_t else grad_s
    if times == "K of ∂L/∂K":
        return scale * grad_s.T @ q  # (m, d_k): the key gradient
    return scale * grad_s @ (q if times == "Q" else k)  # (n, d_k)


def query_case(seed, n, m, d_k, d_v):
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((n, d_k)) * 1.5, rng.standard_normal((m, d_k)) * 1.5
    v, g = rng.standard_normal((m, d_v)), rng.standard_normal((n, d_v))
    return Case(tuple(frozen_array(a) for a in (q, k, v, g)))


def matmul_everywhere(outcomes):
    """A shape error from @ on every case: G @ V never fits here (d_v ≠ m in every case)."""
    if all(isinstance(o.error, ValueError) and "matmul" in str(o.error) for o in outcomes):
        return outcomes[0]
    return None
