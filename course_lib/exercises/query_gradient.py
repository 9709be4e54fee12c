"""Exercise of notebook 13: the whole backward pass down to the queries.

``query_gradient(q, k, v, grad_out)`` returns ∂L/∂Q (n × d_k) for O = softmax(Q Kᵀ/√d_k) V,
given G = ∂L/∂O: ∂L/∂A = G Vᵀ, then ∂L/∂S = A ⊙ (∂L/∂A − row totals), then
∂L/∂Q = (∂L/∂S) K / √d_k.

Slips:

- forgot the scale: (∂L/∂S) K without the 1/√d_k of step 3.
- divided by d_k: 1/d_k instead of 1/√d_k (or the scale applied twice).
- multiplied by √d_k: the scale upside down.
- ** 1/2: ``1 / d_k ** 1/2`` is 1/(2 d_k), ``1 / (d_k ** 1/2)`` is 2/d_k.
- d_k read from the number of keys: √m instead of √d_k.
- d_k read from the values: √d_v instead of √d_k.
- no scale in the forward pass: the weights recomputed from Q Kᵀ without the √d_k.
- forward pass divided by d_k: the recomputed weights use Q Kᵀ / d_k.
- returned the transpose: (∂L/∂Q)ᵀ, d_k × n.
- sign error in the softmax backward: A ⊙ (row totals − ∂L/∂A).
- forgot the row total: ∂L/∂S = A ⊙ ∂L/∂A.
- unweighted row total: the plain row sum (or mean) of ∂L/∂A subtracted.
- no keepdims: the (n,) row totals broadcast along the columns.
- row totals over the wrong axis: step 2's totals summed down the columns.
- skipped the softmax: ∂L/∂S = ∂L/∂A.
- ∂L/∂A transposed: V Gᵀ instead of G Vᵀ (only square grids let it through).
- G V without the transpose: ``grad_out @ v`` (a shape error unless d_v = m).
- ∂L/∂S transposed: (∂L/∂S)ᵀ K, the formula of ∂L/∂K's neighbour.
- multiplied by Q instead of K: (∂L/∂S) Q.
- returned ∂L/∂K: scale · (∂L/∂S)ᵀ Q, the keys' gradient.
- forward softmax over the wrong axis: the recomputed weights' columns sum to 1.
- changed its input (the framework's): e.g. ``q /= sqrt(d_k)`` on the caller's array.
"""


import numpy as np

from ._backward import matmul_everywhere, query_case, query_gradient
from .core import Exercise, Mistake

__all__ = ["QUERY_GRADIENT_EXERCISE", "check_query_gradient", "evaluate_query_gradient"]


_UNWEIGHTED = ("on {call} step 2 subtracted an unweighted total of the row of ∂L/∂A (its plain "
               "sum or mean). Each entry counts with its weight: subtract Σⱼ A_ij ∂L/∂A_ij.")


def _slip(**kw):
    return lambda q, k, v, g: query_gradient(q, k, v, g, **kw)


QUERY_GRADIENT_EXERCISE = Exercise(
    "query_gradient(q, k, v, grad_out)",
    cases=[query_case(*c) for c in [(1, 2, 2, 2, 3), (2, 3, 3, 4, 2), (3, 2, 4, 3, 2),
                               (4, 4, 3, 2, 5), (5, 1, 3, 4, 4), (6, 4, 4, 8, 3)]],
    reference=query_gradient,
    mistakes=[
        Mistake("forgot the scale",
                "on {call} your ∂L/∂Q is √d_k times too big: the scores are Q Kᵀ · scale, so "
                "step 3 multiplies by the scale again, ∂L/∂Q = scale · (∂L/∂S) K.",
                imitation=_slip(divisor="1")),
        Mistake("divided by d_k",
                "on {call} your ∂L/∂Q is divided by d_k: the 1/√d_k applied twice, or d_k "
                "without its root. Step 3 multiplies by scale = 1/√d_k, once.",
                imitation=_slip(divisor="d_k")),
        Mistake("divided by d_k",
                "on {call} you divided by d_k, in the forward pass and in step 3: the scale is "
                "1/√d_k, the square root of d_k.",
                imitation=_slip(divisor="d_k", forward_scale="d_k")),
        Mistake("multiplied by √d_k",
                "on {call} you multiplied by √d_k: the scale is upside down. Step 3 multiplies "
                "by scale = 1/√d_k.", imitation=_slip(divisor="1/√d_k")),
        Mistake("** 1/2",
                "on {call} your scale is 1/(2·d_k): `1 / d_k ** 1/2` is (1 / d_k) / 2, because "
                "** binds tighter than /. Write 1 / d_k ** 0.5 or 1 / math.sqrt(d_k).",
                imitation=_slip(divisor="2·d_k")),
        Mistake("** 1/2",
                "on {call} your scale is 2/d_k: `1 / (d_k ** 1/2)` is 1 / (d_k / 2), because "
                "** binds tighter than /. Write d_k ** 0.5 or math.sqrt(d_k).",
                imitation=_slip(divisor="d_k/2")),
        Mistake("d_k read from the number of keys",
                "on {call} your scale is 1/√m, m the number of keys (k.shape[0]). d_k is the "
                "width of each query and key: q.shape[1].", imitation=_slip(divisor="√m")),
        Mistake("d_k read from the values",
                "on {call} your scale came from the width of v (d_v). d_k is the width of the "
                "queries and keys: q.shape[1].", imitation=_slip(divisor="√d_v")),
        Mistake("d_k read from the values",
                "on {call} your scale came from the width of v (d_v), in the forward pass and "
                "in step 3. d_k is the width of the queries and keys: q.shape[1].",
                imitation=_slip(divisor="√d_v", forward_scale="√d_v")),
        Mistake("no scale in the forward pass",
                "on {call} your weights were recomputed from Q Kᵀ without dividing by √d_k. The "
                "backward pass needs the SAME weights as the forward pass: "
                "A = softmax(Q Kᵀ/√d_k).", imitation=_slip(forward_scale=False)),
        Mistake("forward pass divided by d_k",
                "on {call} the weights were recomputed from Q Kᵀ / d_k. The backward pass needs "
                "the SAME weights as the forward pass: A = softmax(Q Kᵀ / √d_k).",
                imitation=_slip(forward_scale="d_k")),
        Mistake("returned the transpose",
                "{call} gave {got}, a d_k × n grid: ∂L/∂Q has the shape of Q, n × d_k (one row "
                "per query). Return (∂L/∂S) K / √d_k without a final .T.",
                imitation=lambda *args: query_gradient(*args).T),
        Mistake("sign error in the softmax backward",
                "{call} → {got}, exactly minus the answer: your bracket in step 2 is "
                "(row total − ∂L/∂A). It is A ⊙ (∂L/∂A − row total).",
                imitation=_slip(step2="sign")),
        Mistake("forgot the row total",
                "on {call} step 2 skipped the row total: ∂L/∂S = A ⊙ (∂L/∂A − Σⱼ A_ij ∂L/∂A_ij), "
                "subtracting each row's weighted total.", imitation=_slip(step2="no total")),
        Mistake("unweighted row total",
                _UNWEIGHTED, imitation=_slip(step2="unweighted")),
        Mistake("unweighted row total", _UNWEIGHTED, imitation=_slip(step2="mean")),
        Mistake("no keepdims",
                "on {call} the row totals were subtracted along the wrong axis: "
                "(a * grad_a).sum(axis=1) without keepdims=True has shape (n,), which NumPy "
                "lays along the columns. Keep it (n, 1).", imitation=_slip(step2="no keepdims")),
        Mistake("row totals over the wrong axis",
                "on {call} step 2's totals were taken down the columns (axis=0). Each query's "
                "row has its own total Σⱼ A_ij ∂L/∂A_ij: sum(axis=1, keepdims=True).",
                imitation=_slip(step2="axis 0")),
        Mistake("skipped the softmax",
                "on {call} you used ∂L/∂A as ∂L/∂S: the gradient must pass back through the row "
                "softmax (step 2) first.", imitation=_slip(step2="skipped")),
        Mistake("∂L/∂A transposed",
                "on {call} step 1 took V Gᵀ. ∂L/∂A = G Vᵀ (n × m, like A): row i pairs query "
                "i's gradient with every value row.", imitation=_slip(grad_a_t=True)),
        Mistake("G V without the transpose",
                "{call} raised ValueError: G @ V multiplies an n × d_v grid by an m × d_v one, "
                "which do not fit. Step 1 is ∂L/∂A = G Vᵀ: grad_out @ v.T (n × m, like A).",
                detect=matmul_everywhere),
        Mistake("∂L/∂S transposed",
                "on {call} step 3 used (∂L/∂S)ᵀ K. That transpose belongs to ∂L/∂K; for the "
                "queries it is scale · (∂L/∂S) K (n × m times m × d_k).",
                imitation=_slip(grad_s_t=True)),
        Mistake("returned ∂L/∂K",
                "{call} gave the KEYS' gradient, scale · (∂L/∂S)ᵀ Q, of shape m × d_k. The "
                "queries' one is scale · (∂L/∂S) K, of shape n × d_k like Q.",
                imitation=_slip(times="K of ∂L/∂K")),
        Mistake("forward softmax over the wrong axis",
                "on {call} the recomputed weights' columns sum to 1: the softmax of the forward "
                "pass runs along each row (axis=-1, over the keys).", imitation=_slip(axis=0)),
        Mistake("multiplied by Q instead of K",
                "on {call} step 3 multiplied by Q. Nudging row i of Q moves S_ij by "
                "scale · K_jt, so ∂L/∂Q = scale · (∂L/∂S) K.", imitation=_slip(times="Q")),
    ],
    show_args=lambda args: (f"q {np.shape(args[0])}, k {np.shape(args[1])}, "
                            f"v {np.shape(args[2])}, grad_out {np.shape(args[3])}"),
)


def evaluate_query_gradient(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``query_gradient``."""
    return QUERY_GRADIENT_EXERCISE.evaluate(func)


def check_query_gradient(func):
    """Print feedback on a learner's ``query_gradient(q, k, v, grad_out)``.

    >>> from course_lib import attention_gradients
    >>> QUERY_GRADIENT_EXERCISE.evaluate(
    ...     lambda q, k, v, g: attention_gradients(q, k, v, g)[0]).passed
    True
    """
    QUERY_GRADIENT_EXERCISE.check(func)
