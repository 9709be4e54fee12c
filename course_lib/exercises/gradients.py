"""Notebook 13: ∂L/∂s₀ by hand, one row's softmax backward, the gradient back to Q."""

import math

import numpy as np

from .. import softmax
from ._values import frozen_array
from .engine import CodeExercise
from .feedback import slip_rows
from .hand import HandExercise
from .python import REPLACED


def _total(a, g):
    return sum(x * y for x, y in zip(a, g, strict=True))  # Σₗ aₗgₗ


def _hand(formula):
    return lambda a, g: formula(a[0], g[0], _total(a, g), 0, a, g)


def _each(formula):
    return lambda a, g: [formula(x, y, _total(a, g), i, a, g)
                         for i, (x, y) in enumerate(zip(a, g, strict=True))]


_BOTH = [  # name, hint by hand (entry 0), in code (entry j), formula(aⱼ, gⱼ, Σₗ aₗgₗ, j, a, g)
    ("no total subtracted", "{got} is a₀g₀: subtract Σₗ aₗgₗ from g₀ first.",
     "that is aⱼgⱼ: subtract the row total, aⱼ(gⱼ − Σₗ aₗgₗ).", lambda x, y, t, *_: x * y),
    ("the factor a₀ left out", "{got} is g₀ − Σₗ aₗgₗ: now multiply by a₀.",
     "that is gⱼ − Σₗ aₗgₗ: multiply by aⱼ.", lambda x, y, t, *_: y - t),
    ("the plain mean", "{got} subtracts the plain mean: the weights average, Σₗ aₗgₗ.",
     "you subtracted the plain mean of g, not Σₗ aₗgₗ.",
     lambda x, y, t, i, a, g: x * (y - sum(g) / len(g))),
    ("the plain sum", "{got} subtracts Σₗ gₗ: weight each gₗ by its aₗ.",
     "you subtracted Σₗ gₗ: weight each gₗ by its aₗ.", lambda x, y, t, i, a, g: x * (y - sum(g))),
    ("Σ a for the total", "{got} subtracts Σₗ aₗ = 1: the total is Σₗ aₗgₗ.",
     "you subtracted Σₗ aₗ = 1: the total is Σₗ aₗgₗ.", lambda x, y, t, i, a, g: x * (y - sum(a))),
    ("the diagonal only", "{got} is a₀(1 − a₀)g₀ alone: the terms −a₀aₗgₗ count too.",
     "that is aⱼ(1 − aⱼ)gⱼ, the diagonal alone: −aⱼaₗ count too.",
     lambda x, y, t, *_: x * (1 - x) * y),
    ("the total added", "{got} adds the total: subtract it (minus a negative adds).",
     "the row total is subtracted: aⱼ(gⱼ − Σₗ aₗgₗ).", lambda x, y, t, *_: x * (y + t)),
    ("the total not multiplied by a₀", "{got} is a₀g₀ − Σₗ aₗgₗ: a₀(g₀ − Σₗ aₗgₗ).",
     "that is aⱼgⱼ − Σₗ aₗgₗ: aⱼ(gⱼ − Σₗ aₗgₗ).", lambda x, y, t, *_: x * y - t),
]

_SCORE_GRADIENT_HAND_SLIPS = [
    *((name, hint, _hand(f)) for name, hint, _, f in _BOTH),
    *[(f"the entry of key {i}", f"{{got}} is ∂L/∂s{'₀₁₂'[i]}: the question asks for "
       "s₀.", lambda a, g, i=i: a[i] * (g[i] - _total(a, g))) for i in (1, 2)],
]


SCORE_GRADIENT_HAND = HandExercise(
    "score gradient by hand", "∂L/∂s₀ for a = {a} and ∂L/∂a = {g}",
    _hand(lambda a0, g0, t, *_: a0 * (g0 - t)), {"a": [0.5, 0.3, 0.2], "g": [1, -3, -2]},
    _SCORE_GRADIENT_HAND_SLIPS)


def _row(a, g):
    t = _total(a, g)
    return [x * (y - t) for x, y in zip(a, g, strict=True)]


_SOFTMAX_BACKWARD_ROW_SLIPS = [
    *((name.replace("a₀", "aⱼ"), hint, _each(f)) for name, _, hint, f in _BOTH),
    ("a term left out of the total", "Σₗ aₗgₗ runs over every l, l = j included.",
     tuple(
         _each(lambda x, y, t, i, a, g, keep=keep: x * (y - sum(
             a[j] * g[j] for j in range(len(a)) if keep(i, j, len(a)))))
         for keep in (lambda i, j, m: j < m - 1, lambda i, j, m: j > 0,
                      lambda i, j, m: j != i))),
    ("a running total", "entry j subtracts the total up to j only: sum the WHOLE row "
     "first.", _each(lambda x, y, t, i, a, g: x * (y - _total(a[:i + 1], g[:i + 1])))),
    ("only the last term counts", REPLACED,
     _each(lambda x, y, t, i, a, g: x * (y - a[-1] * g[-1]))),
]


SOFTMAX_BACKWARD_ROW = CodeExercise(
    "softmax_backward_row", "softmax_backward_row(a, grad_a)",
    [([0.5, 0.5], [1.0, 0.0]), ([0.2, 0.3, 0.5], [1.0, -2.0, 0.5]),
     ([0.1, 0.6, 0.3], [0.25, 1.5, -1.0]), ([1.0, 0.0, 0.0], [2.0, -1.0, 3.0]),
     ([0.25, 0.25, 0.25, 0.25], [1.0, 2.0, 3.0, 4.0]), ([0.7, 0.2, 0.1], [-0.5, 0.4, 2.2]),
     ([0.05, 0.15, 0.3, 0.4, 0.1], [3.0, -1.0, 0.0, 2.5, -2.0]), ([1.0], [2.5])],
    _row, _SOFTMAX_BACKWARD_ROW_SLIPS, quantities={"m": lambda a, g: len(a)})


def _qkvg(seed, n, m, d_k, d_v):
    rng = np.random.default_rng(seed)
    return tuple(frozen_array(rng.standard_normal(shape).round(2))
                 for shape in ((n, d_k), (m, d_k), (m, d_v), (n, d_v)))


def _gradient(q, k, v, g, forward=None, back=None, weights=None, grad_a=None, total=None,
              step2=None, step3=None, key=None):
    """∂L/∂Q by the three steps; a keyword puts a slip's piece in."""
    scale = 1 / math.sqrt(q.shape[1])
    a = (weights or softmax)(q @ (k.T if key is None else key(k)) * (
        forward(q, k, v) if forward else scale))
    ga = grad_a(g, v) if grad_a else g @ v.T  # step 1: (n, m)
    gs = step2(a, ga) if step2 else a * (
        ga - (total(a, ga) if total else (a * ga).sum(axis=1, keepdims=True)))  # step 2
    return (back(q, k, v) if back else scale) * (step3(gs, q, k, v) if step3 else gs @ k)


def _d(size):
    return lambda q, k, v: size(q, k, v) ** -0.5


_DV, _DK2 = _d(lambda q, k, v: v.shape[1]), _d(lambda q, k, v: q.shape[1] ** 2)


def _root(q, k, v):  # √d_k: the scale upside down
    return q.shape[1] ** 0.5


_Q_ROWS = [  # name, hint, keyword forms of _gradient
    ("no shift: e^x overflows", "scores near 1000 overflow e^x: subtract each row's max first.",
     [{"weights": lambda s: np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)}]),
    ("no scale in the forward pass", "A = softmax(QKᵀ/√d_k), as in the forward.",
     [{"forward": lambda q, k, v: 1.0}]),
    ("divided by d_k", "the scale is 1/√d_k.",
     [{"forward": f, "back": b} for f, b in ((_DK2, _DK2), (_DK2, None), (None, _DK2))]),
    ("multiplied by √d_k", "the scale is upside down: it is 1/√d_k.",
     [{"forward": _root, "back": _root}, {"back": _root}]),
    ("** 1/2", "`d_k ** 1/2` is d_k / 2: d_k ** 0.5.",
     [{"forward": f, "back": b} for f in (lambda q, k, v: 2 / q.shape[1],
                                          lambda q, k, v: 1 / q.shape[1] / 2)
      for f, b in ((f, f), (None, f))]),
    ("no total subtracted", "step 2 is A ⊙ (∂L/∂A − row totals).", [{"total": lambda a, ga: 0.0}]),
    ("an unweighted row total", "row i's total is Σⱼ A_ij ∂L/∂A_ij.",
     [{"total": lambda a, ga: ga.sum(axis=1, keepdims=True)},
      {"total": lambda a, ga: ga.mean(axis=1, keepdims=True)}]),
    ("totals down the columns", "each ROW has its own total: sum(axis=1, keepdims=True).",
     [{"total": lambda a, ga: (a * ga).sum(axis=0, keepdims=True)}]),
    ("one total for the whole grid", "each ROW has its own total: sum(axis=1, keepdims=True).",
     [{"total": lambda a, ga: (a * ga).sum()}]),
    ("√d_v for √d_k", "d_k is the width of q and k, q.shape[1].",
     [{"forward": _DV, "back": _DV}, {"forward": _DV}, {"back": _DV}]),
    ("the softmax step skipped", "∂L/∂S = A ⊙ (∂L/∂A − row totals).",
     [{"step2": lambda a, ga: ga}]),
    ("softmax down the columns", "the softmax runs along each row.",
     [{"weights": lambda s: softmax(s, axis=0)}]),
    ("no softmax", "A is the softmax of the scaled scores.", [{"weights": lambda s: s}]),
    ("returned ∂L/∂S", "that is ∂L/∂S: step 3 makes it scale · (∂L/∂S) K.",
     [{"back": b, "step3": lambda gs, q, k, v: gs} for b in (None, lambda q, k, v: 1.0)]),
    ("V in step 3", "step 3 multiplies by K, what Q meets in the scores.",
     [{"step3": lambda gs, q, k, v: gs @ v}]),
    ("∂L/∂S transposed in step 3", "(∂L/∂S)ᵀ belongs to ∂L/∂K; for Q it is (∂L/∂S) K.",
     [{"step3": lambda gs, q, k, v: gs.T @ k}]),
    ("returned ∂L/∂K", "that is ∂L/∂K: the queries need (∂L/∂S) K.",
     [{"step3": lambda gs, q, k, v: gs.T @ q}]),
    ("∂L/∂A transposed", "∂L/∂A = G Vᵀ (n × m).",
     [{"grad_a": lambda g, v: v @ g.T}, {"grad_a": lambda g, v: g @ v}]),
]


QUERY_GRADIENT = CodeExercise(
    "query_gradient", "query_gradient(q, k, v, grad_out)",
    [_qkvg(seed, *shape) for seed, shape in enumerate(
        [(2, 3, 2, 4), (3, 3, 3, 3), (4, 2, 3, 1), (1, 4, 2, 2), (3, 5, 4, 2), (2, 2, 4, 3)])]
    + [tuple(map(frozen_array, (  # scores near 1000: e^1000 overflows without the row max
        [[20, 20, 20, 20], [20, 20, 20, 20.5]], [[25, 25, 25, 25.5], [25] * 4, [24.9, 25, 25, 25]],
        [[1, -0.5], [0.5, 2], [-1, 1]], [[0.5, -1], [1.5, 0.5]])))],
    _gradient, slip_rows(_Q_ROWS, lambda form: lambda *case: _gradient(*case, **form)),
    quantities={"d_k": lambda q, k, v, g: q.shape[1]},
    show_args=lambda args: ", ".join(f"{name} {np.shape(a)}" for name, a in
                                     zip(("q", "k", "v", "grad_out"), args, strict=True)))

EXERCISES = [SCORE_GRADIENT_HAND, SOFTMAX_BACKWARD_ROW, QUERY_GRADIENT]
