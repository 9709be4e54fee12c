"""Notebook 06: S₂₃ by hand, the product's shape rule, S = (XW_Q)(XW_K)ᵀ in code."""

import numpy as np

from ._values import frozen_array, shapes
from .engine import Case, CodeExercise
from .feedback import NoPrediction
from .hand import HandExercise, one_off

# --- by hand: S₂₃

def _row(grid, i):
    return np.asarray(grid, float)[i]


def _dot(Q, i, K, j):
    return float(_row(Q, i) @ _row(K, j))


def _score(Q, K):
    return _dot(Q, 1, K, 2)  # S₂₃: row q₂ (Q[1]) · row k₃ (K[2])


def _products(Q, K):
    return _row(Q, 1) * _row(K, 2)


def _minus_minus(t=None, twin=False):
    """(−a)(−b) taken as −ab, in every such product or in slot t alone (``twin``: where leaving
    that product out gives the same number, else where it does not)."""
    def gives(Q, K):
        p, both = _products(Q, K), (_row(Q, 1) < 0) & (_row(K, 2) < 0)
        if t is not None:
            both &= np.arange(3) == t
            if both.any() and (2 * p[t] in p) != twin:
                raise NoPrediction
        if not both.any():
            raise NoPrediction
        return float(p.sum() - 2 * p[both].sum())
    return gives


def _draw_grids(rng):
    while True:
        Q, K = rng.integers(-3, 4, size=(3, 3)), rng.integers(-3, 4, size=(4, 3))
        products = Q[1] * K[2]
        if np.all(products != 0) and np.any(products < 0) and _score(Q, K) != 0:
            return {"Q": Q.tolist(), "K": K.tolist()}


_SCORE_HAND_SLIPS = [
    ("key 2 instead of key 3", "{got} is q₂ · k₂: S₂₃ pairs query 2 with key 3.",
     lambda Q, K: _dot(Q, 1, K, 1)),
    ("key 4 instead of key 3", "{got} is q₂ · k₄: the maths counts from 1, k₃ is K[2].",
     lambda Q, K: _dot(Q, 1, K, 3)),
    *[(f"query {i + 1} instead of query 2", f"{{got}} is q{'₁₂₃'[i]} · k₃: S₂₃'s first index "
       "picks the query, row 2 of Q.", lambda Q, K, i=i: _dot(Q, i, K, 2)) for i in (0, 2)],
    ("the indices swapped", "{got} is S₃₂ = q₃ · k₂: the first index picks the query (a row of "
     "Q), the second the key.", lambda Q, K: _dot(Q, 2, K, 1)),
    ("counted from 0", "{got} is q₃ · k₄, Q[2] · K[3]: the maths counts from 1, S₂₃ is Q[1] · "
     "K[2].", lambda Q, K: _dot(Q, 2, K, 3)),
    ("minus times minus", "{got} takes (−a) × (−b) as −ab: it is +ab.",
     (_minus_minus(), *map(_minus_minus, range(3)))),
    ("a column of Q", "{got} pairs column 2 of Q with k₃: q₂ is the second ROW of Q.",
     lambda Q, K: float(np.asarray(Q, float)[:, 1] @ _row(K, 2))),
    ("multiplied the products", "{got} multiplies the three products: add them.",
     lambda Q, K: float(np.prod(_products(Q, K)))),
    ("dropped the minus signs", "{got} adds every product as positive: (−)(+) is negative.",
     lambda Q, K: float(np.abs(_products(Q, K)).sum())),
    ("added instead of multiplied", "multiply matching slots, then add.",
     lambda Q, K: float((_row(Q, 1) + _row(K, 2)).sum())),
    *[(f"left out slot {t + 1}", f"{{got}} leaves out slot {t + 1}'s product: add all three.",
       lambda Q, K, t=t: float(_products(Q, K).sum() - _products(Q, K)[t])) for t in range(3)],
]


SCORE_HAND = HandExercise(
    "score by hand", "S₂₃ for Q = {Q} and K = {K}",
    _score, {"Q": [[-1, 3, -2], [-1, -1, -2], [2, 2, -1]],
             "K": [[1, 3, 0], [3, -2, -2], [-3, 1, -3], [-2, 1, 0]]}, _SCORE_HAND_SLIPS,
    draw=_draw_grids,
    twins=[("one minus times minus", "{got} takes one (−a) × (−b) as −ab: it is +ab.",
            tuple(_minus_minus(t, twin=True) for t in range(3))),
           one_off(_score)])


# --- the shape rule

def _product_shape(shape_a, shape_b):
    (r, c), (c_b, p) = shape_a, shape_b
    if c != c_b:
        raise ValueError(f"inner sizes {c} and {c_b} differ")
    return (r, p)


def _checked(answer):
    def slip(a, b):
        _product_shape(a, b)
        return answer(a, b)
    return slip


def _tested(refuse):
    """A test refusing where ``refuse(a, b)``, alone or besides the right one (a case both refuse
    says nothing)."""
    def alone(a, b):
        if refuse(a, b):
            raise NoPrediction if a[1] != b[0] else ValueError("sizes differ")
        return (a[0], b[1])

    def besides(a, b):
        return alone(a, b) and _product_shape(a, b)
    return (alone, besides)


_PRODUCT_SHAPE_SLIPS = [
    ("the inner sizes", "they must match, then disappear: keep the outer ones.",
     _checked(lambda a, b: (a[1], b[0]))),
    ("the outer sizes swapped", "rows come from A, columns from B: (shape_a[0], shape_b[1]).",
     _checked(lambda a, b: (b[1], a[0]))),
    ("one of the shapes", "the product is (shape_a[0], shape_b[1]), not one grid's shape.",
     (_checked(lambda a, b: tuple(a)), _checked(lambda a, b: tuple(b)))),
    ("kept the inner size", "the dot products use up the inner size: (rows of A, columns of B).",
     _checked(lambda a, b: (a[0], a[1], b[1]))),
    ("the number of cells", "return the shape, (rows, columns), not the cell count.",
     _checked(lambda a, b: a[0] * b[1])),
    ("compared the outer sizes", "shape_a[0] and shape_b[1] may differ: compare the INNER sizes.",
     _tested(lambda a, b: a[0] != b[1])),
    ("a one-sided test", "`>` or `<` lets unequal inner sizes through: refuse when shape_a[1] != "
     "shape_b[0].",
     (_tested(lambda a, b: a[1] > b[0])[0], _tested(lambda a, b: a[1] < b[0])[0])),
    ("compared the rows", "it refused a product that exists: only shape_a[1] and shape_b[0] must "
     "match.", _tested(lambda a, b: a[0] != b[0])),
    ("compared the columns", "compare shape_a[1] with B's ROWS, shape_b[0], not its columns.",
     _tested(lambda a, b: a[1] != b[1])),
]


PRODUCT_SHAPE = CodeExercise(
    "product_shape", "product_shape(shape_a, shape_b)",
    [((2, 3), (3, 4)), ((3, 2), (2, 5)), ((1, 4), (4, 1)), ((4, 4), (4, 2)),
     ((2, 5), (5, 2)), ((3, 4), (4, 4)),
     Case(((2, 3), (2, 3)), raises=ValueError), Case(((3, 4), (2, 3)), raises=ValueError),
     Case(((2, 3), (4, 2)), raises=ValueError), Case(((2, 3), (4, 5)), raises=ValueError)],
    _product_shape, _PRODUCT_SHAPE_SLIPS)


# --- the scores of one sentence

def _grid(shape, seed, halves=False):
    values = np.random.default_rng(seed).integers(-6 if halves else -3, 7 if halves else 4, shape)
    return frozen_array(values / 2 if halves else values)


# (n, d_model, d_k): apart in most; d_k = d_model (X @ W_Q @ W_K runs), d_k = n ((X W_Q) @
# (X W_K) runs), n = d_model in one; halves: no cut hides
_SIZES = [(3, 4, 2), (2, 3, 3), (4, 2, 3), (3, 5, 2), (2, 4, 4), (4, 3, 2), (3, 4, 3),
          (4, 4, 2), (5, 2, 2)]


def _case(i, n, d_model, d_k):
    halves = i >= 5
    return tuple(_grid(shape, 3 * i + t, halves)
                 for t, shape in enumerate([(n, d_model), (d_model, d_k), (d_model, d_k)]))


def _self_scores(X, W_Q, W_K):
    return (X @ W_Q) @ (X @ W_K).T  # (n, d_k) @ (d_k, n) -> (n, n)


_SELF_SCORES_SLIPS = [
    ("Qᵀ K instead of Q Kᵀ", "that pairs columns (d_k×d_k): (X @ W_Q) @ (X @ W_K).T.",
     lambda X, W_Q, W_K: (X @ W_Q).T @ (X @ W_K)),
    ("one weight used twice", "Q = X @ W_Q, K = X @ W_K.",
     (lambda X, W_Q, W_K: (X @ W_Q) @ (X @ W_Q).T, lambda X, W_Q, W_K: (X @ W_K) @ (X @ W_K).T)),
    ("X used once", "the keys need X too: K = X @ W_K.", lambda X, W_Q, W_K: X @ W_Q @ W_K.T),
    ("no weights", "that is X @ X.T: make Q = X @ W_Q and K = X @ W_K first.",
     lambda X, W_Q, W_K: X @ X.T),
    ("element-wise product", "`*` multiplies matching cells: (X @ W_Q) @ (X @ W_K).T.",
     (lambda X, W_Q, W_K: (X @ W_Q) * (X @ W_K),
      lambda X, W_Q, W_K: (X @ W_Q) * (X @ W_K).T, lambda X, W_Q, W_K: X @ (W_Q * W_K) @ X.T)),
    ("the weights alone", "W_Q @ W_K.T leaves out the words: (X @ W_Q) @ (X @ W_K).T.",
     lambda X, W_Q, W_K: W_Q @ W_K.T),
]


SELF_SCORES = CodeExercise(
    "self_scores", "self_scores(X, W_Q, W_K)",
    [_case(i, *sizes) for i, sizes in enumerate(_SIZES)], _self_scores, _SELF_SCORES_SLIPS,
    show_args=shapes(("X", "W_Q", "W_K")),
    quantities={"d_k": lambda X, W_Q, W_K: W_Q.shape[1], "n": lambda X, W_Q, W_K: X.shape[0],
                "d_model": lambda X, W_Q, W_K: X.shape[1]})

EXERCISES = [SCORE_HAND, PRODUCT_SHAPE, SELF_SCORES]
