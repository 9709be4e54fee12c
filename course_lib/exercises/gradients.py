"""Exercise of notebook 13: the backward pass through one row's softmax, and its cards."""

import numpy as np

from .. import softmax, softmax_backward
from ..checklist import Question
from .core import Case, Exercise, Mistake

__all__ = [
    "GRADIENT_QUESTIONS",
    "SOFTMAX_BACKWARD_EXERCISE",
    "check_softmax_backward_row",
    "evaluate_softmax_backward_row",
]


def _rows():
    rng = np.random.default_rng(13)
    cases = [([0.5, 0.5], [1.0, 0.0]), ([0.2, 0.3, 0.5], [1.0, -2.0, 0.5])]
    for m in (3, 4, 6):
        a = softmax(rng.normal(scale=1.5, size=m))
        cases.append((a.tolist(), rng.standard_normal(m).tolist()))
    cases.append(([1.0, 0.0, 0.0], [2.0, -1.0, 3.0]))  # saturated: nothing gets through
    cases.append(([0.25, 0.25, 0.25, 0.25], [1.0, 1.0, 1.0, 1.0]))  # same gradient: no change
    return [Case(args) for args in cases]


def _arrays(a, g):
    return np.asarray(a, float), np.asarray(g, float)


def _no_row_total(a, g):
    a, g = _arrays(a, g)
    return a * g


def _not_times_a(a, g):
    a, g = _arrays(a, g)
    return g - (a * g).sum()


def _plain_mean(a, g):
    a, g = _arrays(a, g)
    return a * (g - g.mean())


def _diagonal_only(a, g):
    a, g = _arrays(a, g)
    return a * (1 - a) * g


SOFTMAX_BACKWARD_EXERCISE = Exercise(
    "softmax_backward_row(a, grad_a)",
    cases=_rows(),
    reference=lambda a, g: softmax_backward(*_arrays(a, g)),
    mistakes=[
        Mistake("forgot the row total",
                "you returned aᵢ·gᵢ. Every weight depends on every score (they share one total), "
                "so subtract the row total Σⱼ aⱼgⱼ first: aᵢ(gᵢ − Σⱼ aⱼgⱼ).",
                imitation=_no_row_total),
        Mistake("forgot to multiply by a",
                "you returned gᵢ − Σⱼ aⱼgⱼ. Multiply by aᵢ as well: a key with weight 0 passes "
                "no gradient to its score.",
                imitation=_not_times_a),
        Mistake("plain mean",
                "you subtracted the plain mean of g. Subtract the weighted total Σⱼ aⱼgⱼ (the "
                "weights a are the averaging weights).",
                imitation=_plain_mean),
        Mistake("diagonal only",
                "you used only the diagonal of the Jacobian, aᵢ(1 − aᵢ)gᵢ. The off-diagonal "
                "terms −aᵢaⱼ matter too; together they give aᵢ(gᵢ − Σⱼ aⱼgⱼ).",
                imitation=_diagonal_only),
    ],
)


def evaluate_softmax_backward_row(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``softmax_backward_row``."""
    return SOFTMAX_BACKWARD_EXERCISE.evaluate(func)


def check_softmax_backward_row(func):
    """Print feedback on a learner's ``softmax_backward_row(a, grad_a)``."""
    SOFTMAX_BACKWARD_EXERCISE.check(func)


GRADIENT_QUESTIONS = (
    Question("Given ∂L/∂O, what are ∂L/∂V and ∂L/∂A for O = AV?",
             "∂L/∂V = Aᵀ (∂L/∂O) and ∂L/∂A = (∂L/∂O) Vᵀ: the two ways a product passes its "
             "gradient back, one per factor.", 13),
    Question("How does the gradient pass back through a row softmax?",
             "∂L/∂sᵢ = aᵢ (∂L/∂aᵢ − Σⱼ aⱼ ∂L/∂aⱼ): the softmax Jacobian diag(a) − a aᵀ applied "
             "to the row, without building it.", 13),
    Question("Why does the gradient reaching the scores vanish without the √d_k?",
             "The raw scores spread like √d_k, the softmax saturates to nearly one-hot, and then "
             "every aᵢ(gᵢ − Σⱼ aⱼgⱼ) is close to 0: the weight is 0, or the bracket is.", 13),
    Question("How do you check a gradient you derived by hand?",
             "Nudge each input by a small h both ways and compare (L(x + h) − L(x − h)) / 2h "
             "with your formula, in float64; the relative error should be tiny (here below "
             "10⁻⁶).", 13),
)
