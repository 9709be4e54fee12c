"""Notebook 05: the sizes of Q, K and V by hand and in code, one query's scores against K."""

import re

import numpy as np

from . import relations
from ._values import frozen_array, numeric, shapes
from .engine import Case, CodeExercise
from .feedback import Slip
from .hand import HandExercise


def _draw_sizes(rng):
    n, m, d_k, d_v = (int(x) for x in rng.choice(np.arange(2, 10), size=4, replace=False))
    return {"n": n, "m": m, "d_k": d_k, "d_v": d_v}


_K_ENTRIES_SLIPS = [
    ("K shaped like Q", "{got} = {n} × {d_k} is Q's size; K has V's m = {m} rows.",
     lambda n, m, d_k, d_v: n * d_k),
    ("K shaped like V", "{got} = {m} × {d_v} is V's size; K has Q's width, d_k = {d_k}.",
     lambda n, m, d_k, d_v: m * d_v),
    ("rows of Q, width of V", "{got} = {n} × {d_v}; K is m × d_k = {m} × {d_k}.",
     lambda n, m, d_k, d_v: n * d_v),
    ("the size of the score grid", "{got} = {n} × {m} is the score grid's size: K is m × d_k.",
     lambda n, m, d_k, d_v: n * m),
    ("the two widths", "{got} = {d_k} × {d_v}; K is m × d_k = {m} × {d_k}.",
     lambda n, m, d_k, d_v: d_k * d_v),
    ("one size alone", "{got} is one size: K holds m × d_k = {m} × {d_k} numbers.",
     (lambda n, m, d_k, d_v: m, lambda n, m, d_k, d_v: d_k)),
    ("added rows and columns", "{got} = {m} + {d_k}: a grid holds rows × columns.",
     lambda n, m, d_k, d_v: m + d_k),
    ("K as a square", "{got} = {m} × {m}: K is as wide as Q, d_k = {d_k}.",
     lambda n, m, d_k, d_v: m * m),
    ("counted Q and V", "{got} counts Q and V; the question is K.",
     lambda n, m, d_k, d_v: n * d_k + m * d_v),
    ("three sizes multiplied", "{got} multiplies three sizes: K is m × d_k.",
     (lambda n, m, d_k, d_v: m * d_k * d_v, lambda n, m, d_k, d_v: n * m * d_k)),
    ("added every size", "{got} adds all four sizes: rows × columns.",
     lambda n, m, d_k, d_v: n + m + d_k + d_v),
    ("K as d_k × d_k", "{got} = {d_k} × {d_k}: K has V's m = {m} rows.",
     lambda n, m, d_k, d_v: d_k * d_k),
    ("K as n × n", "{got} = {n} × {n}: K is m × d_k = {m} × {d_k}.", lambda n, m, d_k, d_v: n * n),
]


K_ENTRIES = HandExercise(
    "numbers in K by hand", "the count of numbers in K when Q is {n}×{d_k} and V is {m}×{d_v}",
    lambda n, m, d_k, d_v: m * d_k, {"n": 4, "m": 7, "d_k": 6, "d_v": 3}, _K_ENTRIES_SLIPS,
    draw=_draw_sizes)


def _misfit(Q, K, V):
    return K.shape[1] != Q.shape[1] or K.shape[0] != V.shape[0]


def _sizes(Q, K, V):
    if _misfit(Q, K, V):
        raise ValueError(f"K {K.shape} needs Q's width {Q.shape[1]} and V's rows {V.shape[0]}")
    return (Q.shape[0], K.shape[0], Q.shape[1], V.shape[1])  # (n, m, d_k, d_v)


def _checked(answer):  # a slip in what is returned, behind the right test or none
    return (lambda Q, K, V: (_sizes(Q, K, V), answer(Q, K, V))[1]), answer


def _refusing(unfit):  # a learner's attention_sizes whose test is ``unfit``
    def attention_sizes(Q, K, V):
        if unfit(Q, K, V):
            raise ValueError("the sizes do not fit")
        return (Q.shape[0], K.shape[0], Q.shape[1], V.shape[1])
    return attention_sizes


def _refused(unfit, answered=lambda Q, K, V: False):
    """A ValueError of the learner's where ``unfit`` holds, or an answer where ``answered``."""
    def test(o):
        if o.case.raises is None:
            return relations.refused(o, ValueError) and unfit(*o.case.args)
        return o.error is None and answered(*o.case.args)
    return test


def _says_sizes(message):
    return bool(re.search(r"\d|\b[QKV]\b", message))


def _refused_case(*shapes):
    return Case(_grids(*shapes), raises=ValueError, says=_says_sizes)


def _grids(*shapes):
    return tuple(frozen_array(np.arange(r * c).reshape(r, c) % 5 * 0.5 - 1.0) for r, c in shapes)


class _Sizes(CodeExercise):
    """A vague refusal is named once the rest is right."""

    def run(self, func):
        outcomes = super().run(func)
        vague = [o for o in outcomes if not o.correct and o.case.raises is not None
                 and isinstance(o.error, ValueError) and str(o.error).strip()]
        if sum(not o.correct for o in outcomes) > len(vague):
            for o in vague:
                o.correct = True
        return outcomes


_SIZES_SLIPS = [
    ("sizes in another order", "Q's shape then V's: the order is (n, m, d_k, d_v).",
     _checked(lambda Q, K, V: (*Q.shape, *V.shape))),
    ("Q's rows as m", "m counts the keys, K's rows; Q's rows are the n queries.",
     _checked(lambda Q, K, V: (len(Q), len(Q), Q.shape[1], V.shape[1]))),
    ("V's width as m", "m counts the keys, K's rows; V's width is d_v.",
     _checked(lambda Q, K, V: (len(Q), V.shape[1], Q.shape[1], V.shape[1]))),
    ("K's width as d_v", "d_v is the width of V; K's width is d_k.",
     _checked(lambda Q, K, V: (len(Q), len(K), Q.shape[1], K.shape[1]))),
    ("returned the shapes", "return the four sizes, (n, m, d_k, d_v).",
     _checked(lambda Q, K, V: (Q.shape, K.shape, V.shape))),
    Slip("refused n ≠ m", "n and m may differ: only K's width must match Q's, and V's rows K's.",
         when=_refused(lambda Q, K, V: len(Q) != len(K), answered=lambda Q, K, V:
                       K.shape[1] == Q.shape[1] and len(V) == len(Q)),
         example=_refusing(lambda Q, K, V: len(Q) != len(K) or _misfit(Q, K, V))),
    Slip("refused d_k ≠ d_v", "d_v may differ from d_k: those grids fit.",
         when=_refused(lambda Q, K, V: Q.shape[1] != V.shape[1]),
         example=_refusing(lambda Q, K, V: Q.shape[1] != V.shape[1] or _misfit(Q, K, V))),
    Slip("no check of V's rows", "it accepted a V whose rows differ from K's: raise ValueError on "
         "!= (not <).",
         when=lambda o: o.case.raises is not None and o.error is None
         and o.case.args[1].shape[1] == o.case.args[0].shape[1],
         example=_refusing(lambda Q, K, V: K.shape[1] != Q.shape[1])),
    Slip("no check of K's width", "it accepted a K not as wide as Q: raise ValueError on !=.",
         when=lambda o: o.case.raises is not None and o.error is None
         and len(o.case.args[1]) == len(o.case.args[2]),
         example=_refusing(lambda Q, K, V: len(K) != len(V))),
    Slip("a message that names no size", "say which sizes differ, like f\"K has width "
         "{K.shape[1]}, Q has {Q.shape[1]}\".", when=lambda o: o.case.raises is not None
         and isinstance(o.error, ValueError) and not _says_sizes(str(o.error) or "0"),
         example=_refusing(_misfit)),
]


SIZES = _Sizes(
    "attention_sizes", "attention_sizes(Q, K, V)",
    [_grids((2, 3), (5, 3), (5, 4)),
     _grids((4, 2), (4, 2), (4, 3)),  # n = m
     _grids((3, 4), (2, 4), (2, 4)),  # d_k = d_v
     _grids((5, 1), (3, 1), (3, 2)),
     _grids((1, 5), (6, 5), (6, 3)),
     _refused_case((2, 3), (4, 2), (4, 5)),  # K's width
     _refused_case((3, 2), (5, 2), (4, 3)),  # V's rows
     _refused_case((2, 4), (3, 2), (5, 1)),  # both
     _refused_case((3, 2), (4, 2), (3, 5)),  # V has Q's rows
     _refused_case((2, 3), (4, 3), (5, 2)),  # V has more rows
     _refused_case((2, 3), (4, 4), (4, 2))],  # K wider than Q
    _sizes, _SIZES_SLIPS, show_args=shapes("QKV"))


def _query_scores(q, K):
    return [float(q @ k) for k in K]  # (m,)


def _per_slot(q, K):
    if len(q) > len(K):
        raise IndexError("index out of bounds")
    return [float(q @ K[j]) for j in range(len(q))]


def _inside(o):
    """The right scores, in a longer list."""
    v, e = numeric(o.value), o.case.expected
    return v is not None and v.ndim == 1 and len(v) > len(e) and any(
        np.allclose(v[i:i + len(e)], e) for i in range(len(v) - len(e) + 1))


_QUERY_SCORES_SLIPS = [
    ("the columns of K", "`q @ K` pairs q with the COLUMNS of K; a key is a ROW: q @ K[j].",
     lambda q, K: q @ K),
    ("added up the scores", "return one score per key, m numbers.",
     lambda q, K: sum(_query_scores(q, K))),
    ("products not added", "add each key's products, q @ k.", lambda q, K: q * K),
    ("added along the wrong axis", "the products were added down the keys: axis=1.",
     lambda q, K: (q * K).sum(axis=0)),
    ("one score per slot", "loop over the keys, range(len(K)), not range(len(q)).", _per_slot),
    ("= instead of append", "only the last score came back: append each.",
     (lambda q, K: float(q @ K[-1]), lambda q, K: [float(q @ K[-1])])),
    ("divided by the lengths", "that is the cosine: the score is q · k.",
     lambda q, K: [float(q @ k / (np.sqrt(q @ q) * np.sqrt(k @ k))) for k in K]),
    ("multiplied the sums", "(q₁ + q₂ + …)(k₁ + k₂ + …): multiply matching slots, then add.",
     lambda q, K: [float(sum(q) * sum(k)) for k in K]),
    ("q with itself", "every score is q · q: score each row k of K.",
     lambda q, K: [float(q @ q)] * len(K)),
    Slip("kept earlier calls' scores", "the right scores and more: a list made outside the "
         "function keeps every call's.", when=_inside,
         example=lambda q, K, kept=[]: kept.extend(q @ K.T) or kept),  # noqa: B006
]


QUERY_SCORES = CodeExercise(
    "query_scores", "query_scores(q, K)",
    [tuple(map(frozen_array, c)) for c in [
        ([1.5, -2, 0.5], [[1, 0.5, 2], [-1.5, 1, 0], [0.5, 0.5, -1], [2, -0.5, 1.5]]),
        ([2, 1], [[0.5, -1], [1.5, 2], [-1, 0.5]]),
        ([0.5, -1, 2, 1.5], [[1, 0, 0.5, -1], [-0.5, 1.5, 1, 2]]),
        ([1, 2, -1], [[0.5, 1, 1.5], [-1, 0.5, 2], [2, -1.5, 0.5]]),
        ([-0.5, 1.5], [[1, 1], [2, -0.5], [-1.5, 0.5], [0.5, 2.5], [1, -1]])]],
    _query_scores, _QUERY_SCORES_SLIPS,
    quantities={"d_k": lambda q, K: len(q), "m": lambda q, K: len(K)})


EXERCISES = [K_ENTRIES, SIZES, QUERY_SCORES]
