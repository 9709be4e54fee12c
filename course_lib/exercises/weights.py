"""Exercises of notebook 07 beyond ``softmax_rows``: one softmax weight worked out by hand,
and softmax's grid of slopes J = diag(p) − p pᵀ in code.

Slips
-----
By hand, p₁ for the scores x = [3, 1, 0] (``HAND_WEIGHT``):

- no exponential: 3 / (3 + 1 + 0);
- left out e⁰: e⁰ = 1, not 0, so the total has three terms;
- only two scores: e³ / (1 + e³), as if x had two slots;
- powers of 2 / powers of 10: 2ˣ or 10ˣ instead of eˣ;
- squares: x² instead of eˣ;
- weight of key 2 / weight of key 3: p₂ or p₃ instead of p₁;
- equal split: 1/m, as if all scores were equal;
- multiplied instead of added: e³ / (e³ · e¹ · e⁰);
- forgot to divide: e³ alone.

``jacobian(p)``, the m×m grid J with J_ij = ∂pᵢ/∂xⱼ:

- forgot diag(p): only −p pᵀ;
- signs turned round: p pᵀ − diag(p);
- p @ p.T on a flat vector: a 1-D p has no transpose, so p @ p.T is one number;
- p * p instead of the outer product: p² subtracted along every row;
- only the diagonal: pᵢ(1 − pᵢ) with zeros elsewhere (or as a vector);
- p(1 − p) on every row: pᵢ(1 − pⱼ) in every cell;
- identity instead of diag(p): I − p pᵀ;
- p instead of diag(p): p − p pᵀ, the vector p spread over every row;
- off-diagonal sign: +pᵢpⱼ off the diagonal;
- diagonal subtracted twice: diag(p(1 − p)) − p pᵀ;
- loop stops one early: the last row and column left at 0;
- loop starts at 1: the first row and column left at 0;
- return inside the loop: only the first row filled;
- changed its input: p written into (named by the framework).
"""

import math

import numpy as np

from .. import softmax_jacobian
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["HAND_WEIGHT", "JACOBIAN_EXERCISE", "check_jacobian", "check_weight",
           "evaluate_jacobian"]

_E3 = math.exp(3.0)
_TOTAL = _E3 + math.e + 1.0  # e³ + e¹ + e⁰

HAND_WEIGHT = HandExercise(
    "p₁ = softmax([3, 1, 0])₁",
    _E3 / _TOTAL,
    [
        Slip("no exponential", 0.75, "{got} is 3 / (3 + 1 + 0): the scores divided by their "
             "total. Softmax first takes e of each score: e³ / (e³ + e¹ + e⁰)."),
        Slip("left out e⁰", _E3 / (_E3 + math.e), "{got} leaves out the third score. Its "
             "score is 0, but e⁰ = 1, not 0: the total is e³ + e¹ + 1."),
        Slip("only two scores", _E3 / (1.0 + _E3), "{got} is e³ / (1 + e³), a two-score "
             "softmax. The total has one term per score: e³ + e¹ + e⁰."),
        Slip("powers of 2", 8.0 / 11.0, "{got} uses 2ˣ. Softmax uses e ≈ 2.718: e³ ≈ 20.09."),
        Slip("powers of 10", 1000.0 / 1011.0, "{got} uses 10ˣ. Softmax uses e ≈ 2.718: "
             "e³ ≈ 20.09."),
        Slip("squares", 0.9, "{got} uses x². Softmax uses eˣ: e³ ≈ 20.09, e¹ ≈ 2.718, e⁰ = 1."),
        Slip("weight of key 2", math.e / _TOTAL, "{got} is p₂, the weight of the score 1. "
             "p₁ belongs to the first score, 3: e³ on top."),
        Slip("weight of key 3", 1.0 / _TOTAL, "{got} is p₃, the weight of the score 0. "
             "p₁ belongs to the first score, 3: e³ on top."),
        Slip("equal split", 1.0 / 3.0, "{got} is 1/m, the weight when all scores are equal. "
             "Here they differ: e³ / (e³ + e¹ + e⁰)."),
        Slip("multiplied instead of added", 1.0 / math.e, "{got} divides by e³ × e¹ × e⁰. "
             "The total ADDS the exponentials: e³ + e¹ + e⁰ ≈ 23.80."),
        Slip("forgot to divide", _E3, "{got} is e³ alone: divide it by the total "
             "e³ + e¹ + e⁰ so the weights add up to 1."),
    ],
    tolerance=0.002,
)


def check_weight(value):
    """Print feedback on the number worked out by hand for p₁."""
    HAND_WEIGHT.check(value)


# --- the Jacobian J = diag(p) − p pᵀ ------------------------------------------------------

_CASES = [[0.5, 0.5], [0.7, 0.2, 0.1], [1.0], [0.1, 0.2, 0.3, 0.4], [0.6, 0.3, 0.1]]


def _loop_filled(p, rows, cols):
    grid = np.zeros((len(p), len(p)))
    for i in rows:
        for j in cols:
            grid[i, j] = p[i] * (i == j) - p[i] * p[j]
    return grid


def _either(*imitations):
    mistakes = [Mistake("", "", imitation=f) for f in imitations]
    return lambda outcomes: next((found for m in mistakes if (found := m.telling_outcome(
        JACOBIAN_EXERCISE, outcomes)) is not None), None)


def _m(p):
    return range(len(p))


JACOBIAN_EXERCISE = Exercise(
    "jacobian(p)",
    cases=[Case((frozen_array(p),)) for p in _CASES],
    reference=softmax_jacobian,
    mistakes=[
        Mistake("forgot diag(p)",
                "{call} gave {got}: that is −p pᵀ alone. Add diag(p), the weights on the "
                "diagonal: J = diag(p) − p pᵀ, here {expected}.",
                imitation=lambda p: -np.outer(p, p)),
        Mistake("signs turned round",
                "{call} gave {got}: p pᵀ − diag(p) is −J. The diagonal must be positive "
                "(raising score i raises weight i): J = diag(p) − p pᵀ.",
                imitation=lambda p: np.outer(p, p) - np.diag(p)),
        Mistake("p @ p.T on a flat vector",
                "{call} gave {got}: for a 1-D array p.T is p itself, so p @ p.T is ONE number "
                "(Σ pᵢ²). The m×m grid of all products pᵢpⱼ is np.outer(p, p), or "
                "p[:, None] * p[None, :].",
                imitation=lambda p: np.diag(p) - p @ p),
        Mistake("p * p instead of the outer product",
                "{call} gave {got}: p * p squares each weight (a vector), and NumPy subtracts "
                "it along every row. The grid of all products pᵢpⱼ is np.outer(p, p).",
                imitation=lambda p: np.diag(p) - p * p),
        Mistake("only the diagonal",
                "{call} gave {got}: the diagonal pᵢ(1 − pᵢ) is right, but the other cells "
                "are −pᵢpⱼ, not 0: nudging one score moves every weight.",
                detect=_either(lambda p: np.diag(p * (1 - p)), lambda p: p * (1 - p))),
        Mistake("p(1 − p) on every row",
                "{call} gave {got}: cell (i, j) is pᵢ(1 − pⱼ), the diagonal formula used "
                "everywhere. Off the diagonal the slope is −pᵢpⱼ: J = diag(p) − p pᵀ.",
                imitation=lambda p: np.outer(p, 1 - p)),
        Mistake("identity instead of diag(p)",
                "{call} gave {got}: np.eye(m) puts 1 on the diagonal. J needs the weights "
                "there: np.diag(p) − np.outer(p, p).",
                imitation=lambda p: np.eye(len(p)) - np.outer(p, p)),
        Mistake("p instead of diag(p)",
                "{call} gave {got}: subtracting from p itself spreads the vector over every "
                "row. Put p on the diagonal first: np.diag(p) − np.outer(p, p).",
                imitation=lambda p: p - np.outer(p, p)),
        Mistake("off-diagonal sign",
                "{call} gave {got}: the cells off the diagonal are −pᵢpⱼ (raising one score "
                "lowers every other weight), not +pᵢpⱼ.",
                imitation=lambda p: np.outer(p, p) + np.diag(p - 2 * p * p)),
        Mistake("diagonal subtracted twice",
                "{call} gave {got}: the diagonal pᵢ(1 − pᵢ) already contains the −pᵢ²; "
                "subtracting p pᵀ takes it away a second time. J = diag(p) − p pᵀ.",
                imitation=lambda p: np.diag(p * (1 - p)) - np.outer(p, p)),
        Mistake("loop stops one early",
                "{call} gave {got}: the last row or column is still 0. range(m) already stops "
                "at m − 1, the last index: no `- 1` needed.",
                detect=_either(lambda p: _loop_filled(p, range(len(p) - 1), _m(p)),
                               lambda p: _loop_filled(p, _m(p), range(len(p) - 1)),
                               lambda p: _loop_filled(p, range(len(p) - 1), range(len(p) - 1)))),
        Mistake("loop starts at 1",
                "{call} gave {got}: the first row or column is still 0. Python counts from 0: "
                "range(m) runs 0, 1, …, m − 1, so start the loops at 0.",
                detect=_either(lambda p: _loop_filled(p, range(1, len(p)), _m(p)),
                               lambda p: _loop_filled(p, _m(p), range(1, len(p))),
                               lambda p: _loop_filled(p, range(1, len(p)), range(1, len(p))))),
        Mistake("return inside the loop",
                "{call} gave {got}: only the start of the grid is filled. The `return` sits "
                "inside a loop: move it after both loops.",
                detect=_either(lambda p: _loop_filled(p, range(1), _m(p)),
                               lambda p: _loop_filled(p, range(1), range(1)),
                               lambda p: softmax_jacobian(p)[0])),
    ],
)


def evaluate_jacobian(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``jacobian``."""
    return JACOBIAN_EXERCISE.evaluate(func)


def check_jacobian(func):
    """Print feedback on a learner's ``jacobian(p)``."""
    JACOBIAN_EXERCISE.check(func)
