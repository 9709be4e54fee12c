"""Notebook 10: three attention functions, one bug each, checked by 09's table less that row."""

import ast
import inspect
import math
import textwrap
from dataclasses import replace

import numpy as np

from .attention import SLIPS, AttentionExercise
from .feedback import NOT_ATTEMPTED

STILL = "the bug still there"


class BugHunt(AttentionExercise):
    """A broken attention function to fix, checked like ``"attention"`` without its bug's row."""

    def __init__(self, name, broken, bug, extra=()):
        self.broken = broken
        slips = [(STILL, "", broken), *(s for s in SLIPS if s.name != bug), *extra]
        if len(slips) != len(SLIPS) + len(extra):
            raise ValueError(f"{name}: {bug!r} is not a slip of the attention table")
        super().__init__(name, f"{broken.__name__[1:]}(query, key, value)", slips)

    def evaluate(self, func):
        feedback = super().evaluate(func)
        if feedback.mistake != STILL:
            return feedback
        shown = self.frame(next(o for o in feedback.outcomes if o.case is feedback.case))
        if _same_code(func, self.broken):
            return replace(feedback, status=NOT_ATTEMPTED, message="Not attempted yet: "
                           f"{self.function} still does what it did when it was handed to you: "
                           f"{shown} Find the line that does not do what softmax(QKᵀ/√d_k)V says, "
                           "fix it, and run the cell again.")
        return replace(feedback, message=f"Not yet: {shown} The bug is still there: your edit did "
                       f"not change what {self.function} gives. Find the line that does not do "
                       "what softmax(QKᵀ/√d_k)V says.")


def _same_code(func, broken):
    """``func`` is the handed-out function unedited (name, comments, layout aside; True with no
    source)."""
    try:
        a, b = (ast.parse(textwrap.dedent(inspect.getsource(f))).body[0] for f in (func, broken))
        return [ast.dump(x) for x in (a.args, *a.body)] == [ast.dump(x) for x in (b.args, *b.body)]
    except (OSError, TypeError, SyntaxError, IndexError, AttributeError):
        return True


# The three functions as notebook 10 hands them out (the same lines as its cells).

def _attention_1(query, key, value):
    d_k = query.shape[-1]
    scores = query @ key.T / math.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=0, keepdims=True)
    return weights @ value


def _attention_2(query, key, value):
    d_k = query.shape[-1]
    scores = query @ key.T / d_k
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ value


def _attention_3(query, key, value):
    d_k = query.shape[-1]
    scores = query @ key.T / math.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ key


def _column_weights(q, k, by=None):
    s = q @ k.T / (math.sqrt(q.shape[-1]) if by is None else by)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)  # (n, m), each COLUMN adds up to 1


BUG_HUNTS = [
    BugHunt("bug hunt 1", _attention_1, "the total down the columns", extra=[
        ("transposed instead of fixed", "weights.T's rows add up to 1, but row j is KEY j's: "
         "divide each query's row by its own total, sum(axis=-1, keepdims=True).",
         lambda q, k, v: _column_weights(q, k).T @ v),
        ("the bug left, a right line changed", "the sum still runs down the columns (axis=0), and "
         "the right scale now divides by d_k: undo that, fix the sum.",
         lambda q, k, v: _column_weights(q, k, q.shape[-1]) @ v)]),
    BugHunt("bug hunt 2", _attention_2, "divided by d_k"),
    BugHunt("bug hunt 3", _attention_3, "weights applied to K"),
]

EXERCISES = BUG_HUNTS
