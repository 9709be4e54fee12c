"""Multi-head pieces shared by the checkers of notebook 12: X W cut into heads (the right
way or a slip's way), every head's weights with one slip switched on, a random case, and
the float-width detector. This module defines no exercise (its name starts with _)."""

import math

import numpy as np

from .. import softmax
from .core import Case


def project_heads(x, w, h, split="slices", short=False):
    """X W cut into h heads, (h, n, d_k), the right way (``split="slices"``) or a slip's way."""
    a = np.asarray(x, float) @ np.asarray(w, float)  # (n, h·d_k)
    n, width = a.shape
    d_k = width // h
    if split == "rows":
        return a.reshape(h, n, d_k)
    if split == "interleaved":
        return a.reshape(n, d_k, h).transpose(2, 0, 1)
    if split == "shifted":  # columns t·d_k + 1 … (t+1)·d_k: the last head runs out
        return [a[:, t * d_k + 1:(t + 1) * d_k + 1] for t in range(h)]
    if split == "offset":  # columns t … t + d_k − 1: each head starts t columns in, not t·d_k
        return [a[:, t:t + d_k] for t in range(h)]
    if split == "long":  # columns t·d_k … (t+1)·d_k: one column into the next head
        return [a[:, t * d_k:(t + 1) * d_k + 1] for t in range(h)]
    heads = a.reshape(n, h, d_k).transpose(1, 0, 2)
    return heads[:, :, :d_k - 1] if short else heads


def head_weights(x, w_q, w_k, h, divisor="√d_k", keys="W_K", split="slices", short=False,
                 flip=False, axis=-1, normalise=True):
    """Every head's (n, n) weights, (h, n, n); the keywords make one slip each."""
    w_q, w_k = np.asarray(w_q, float), np.asarray(w_k, float)
    q = project_heads(x, w_q.T if keys in ("W_Qᵀ", "both ᵀ") else w_q, h, split, short)
    k = project_heads(x, {"W_Q": w_q, "W_Kᵀ": w_k.T, "both ᵀ": w_k.T}.get(keys, w_k), h, split,
                      short)
    d_model = np.shape(w_q)[1]
    d_k = d_model // h
    by = {"√d_k": math.sqrt(d_k), "d_k": d_k, "√d_model": math.sqrt(d_model),
          "d_model": d_model, "√h": math.sqrt(h), "1": 1.0, "1/√d_k": 1 / math.sqrt(d_k),
          "d_k/2": d_k / 2, "2·d_k": 2 * d_k, "√d_model/h": math.sqrt(d_model) / h}[divisor]
    scores = np.stack([kt @ qt.T if flip else qt @ kt.T for qt, kt in zip(q, k, strict=True)])
    scores = scores / by  # (h, n, n)
    if normalise in ("grid", "no keepdims"):
        e = np.exp(scores - scores.max(axis=(1, 2), keepdims=True))
        return e / (e.sum(axis=(1, 2), keepdims=True) if normalise == "grid"
                    else e.sum(axis=-1)[:, None, :])  # row totals laid along the columns
    return softmax(scores, axis=axis) if normalise else scores


def heads_case(seed, n, d_model, h, with_values=False):
    """Random token rows (spread 2) and projections: (x, w_q, w_k[, w_v, w_o], h)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model)) * 2.0
    ws = [rng.standard_normal((d_model, d_model)).tolist() for _ in range(4 if with_values
                                                                           else 2)]
    return Case((x.tolist(), *ws, h))


def float_width(outcomes):
    """The first case that failed because d_k = d_model / h is a float (a slice or reshape)."""
    return next((o for o in outcomes if isinstance(o.error, TypeError) and (
        "slice indices must be integers" in str(o.error)
        or "'float' object cannot be interpreted as an integer" in str(o.error))), None)


FLOAT_HINT = ("{call} raised TypeError: d_model / h always gives a float (8 / 2 = 4.0), and "
              "slices and reshapes need whole numbers. Use d_model // h.")


def show_heads(args):
    """The learner reads the shapes of a case, not its 100 numbers."""
    return (f"x of shape {np.shape(args[0])}, weight matrices of shape {np.shape(args[1])}, "
            f"num_heads={args[-1]}")
