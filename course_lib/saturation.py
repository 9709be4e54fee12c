"""The numbers of the saturation pictures: notebook 07's softmax of growing scores, and
notebook 08's spread of darts, and for each d_k what the spread
of the scores does to softmax (it saturates) and to the gradient that reaches q and k.

Three scalings of the scores q·k are compared: raw (× 1), scaled (× 1/√d_k) and over-shrunk
(× 1/d_k). Raw scores saturate softmax (a one-hot row passes no gradient back); ÷ d_k keeps
softmax healthy but the chain-rule factor scale × ∥k∥ = √d_k / d_k starves the gradient that
reaches q; only ÷ √d_k keeps both near 1.
"""

import numpy as np

from .backend import to_numpy
from .scaling import default_scale
from .softmax import jacobian_norm, softmax, softmax_jacobian
from .vectors import norm

__all__ = [
    "SATURATED",
    "SCALINGS",
    "dart_spread",
    "density",
    "query_gradient_norm",
    "scaling_multipliers",
    "sensitivity_curve",
    "slope_numbers",
    "softmax_sensitivity",
    "spread",
    "spread_statistics",
]

SCALINGS = ("raw", "scaled", "over")  # × 1, × 1/√d_k, × 1/d_k
SATURATED = 0.99  # a row whose largest weight is at least this is called saturated (one-hot)


def softmax_sensitivity(scores, factor):
    """softmax(factor × scores), its Jacobian J and the sensitivity ∥J∥ (notebook 07's dashboard).

    >>> weights, jacobian, size = softmax_sensitivity([1.0, 0.0], 0.0)   # equal scores
    >>> weights.tolist(), round(size, 4)
    ([0.5, 0.5], 0.5)
    """
    weights = to_numpy(softmax(factor * np.asarray(scores, dtype=float)))  # (m,)
    return weights, to_numpy(softmax_jacobian(weights)), float(jacobian_norm(weights))


def sensitivity_curve(scores, factors):
    """∥J∥ of softmax(factor × scores) for every factor: (len(factors),)."""
    weights = softmax(np.outer(factors, np.asarray(scores, dtype=float)))  # (len(factors), m)
    return to_numpy(jacobian_norm(weights))


def slope_numbers(scores, index, at, nudge, xs):
    """Weight pᵢ as a curve of its own score xᵢ (the others fixed), and its slope at ``at``.

    Returns a dict: ``curve`` (pᵢ at every x of ``xs``), ``weight`` (pᵢ at ``at``), ``slope``
    (Jᵢᵢ = pᵢ(1 − pᵢ)), ``predicted`` (slope × nudge, along the tangent) and ``moved`` (the true
    move of pᵢ when xᵢ grows by ``nudge``).

    >>> numbers = slope_numbers([0.0, 0.0], 0, 0.0, 0.1, [0.0])
    >>> numbers["weight"], numbers["slope"]
    (0.5, 0.25)
    """
    scores = np.asarray(scores, dtype=float)
    grid = np.repeat(scores[None, :], len(xs), axis=0)  # (len(xs), m)
    grid[:, index] = xs
    here, nudged = scores.copy(), scores.copy()
    here[index], nudged[index] = at, at + nudge
    weights = to_numpy(softmax(here))
    slope = float(to_numpy(softmax_jacobian(weights))[index, index])
    return {"curve": to_numpy(softmax(grid))[:, index], "weight": float(weights[index]),
            "slope": slope, "predicted": slope * nudge,
            "moved": float(to_numpy(softmax(nudged))[index]) - float(weights[index])}


def spread(values):
    """The spread (standard deviation) √Var(x): the root of the average squared distance from
    the mean, in the units of x.

    >>> float(spread([-1.0, 0.0, 1.0, 0.0]))   # variance (1 + 0 + 1 + 0) / 4 = 0.5
    0.7071067811865476
    """
    values = np.asarray(to_numpy(values), dtype=float)
    return float(np.sqrt(np.mean((values - values.mean()) ** 2)))


def dart_spread(throws):
    """Where 2-D darts land on average and how spread out they are: ``(centre, radius)``.

    ``centre`` is the mean dart (x̄, ȳ); ``radius`` is the spread of one coordinate,
    √Var, pooled over both coordinates: √((Var(x) + Var(y)) / 2).

    Parameters
    ----------
    throws : (N, 2) dart positions.

    >>> centre, radius = dart_spread([[-1.0, 0.0], [1.0, 0.0], [0.0, -1.0], [0.0, 1.0]])
    >>> centre.tolist(), round(radius, 4)   # Var(x) = Var(y) = 0.5
    ([0.0, 0.0], 0.7071)
    """
    throws = np.asarray(to_numpy(throws), dtype=float)
    if throws.ndim != 2 or throws.shape[1] != 2:
        raise ValueError(f"throws must have shape (N, 2); got {throws.shape}")
    centre = throws.mean(axis=0)  # (2,)
    variances = [spread(throws[:, 0]) ** 2, spread(throws[:, 1]) ** 2]  # Var(x), Var(y)
    return centre, float(np.sqrt(np.mean(variances)))


def density(samples, edges):
    """The share of ``samples`` per unit in each bin between consecutive ``edges`` (a
    histogram scaled so that its area over all samples is 1; samples outside are left out).

    >>> density([0.5, 1.5, 1.6, 9.0], [0.0, 1.0, 2.0]).tolist()   # 1 and 2 of 4 samples
    [0.25, 0.5]
    """
    samples = np.asarray(to_numpy(samples), dtype=float)
    counts, edges = np.histogram(samples, bins=np.asarray(edges, dtype=float))
    return counts / (len(samples) * np.diff(edges))  # (bins,)


def scaling_multipliers(d_k):
    """The multiplier of each scaling: raw 1, scaled 1/√d_k, over-shrunk 1/d_k.

    >>> scaling_multipliers(64)
    {'raw': 1.0, 'scaled': 0.125, 'over': 0.015625}
    """
    return {"raw": 1.0, "scaled": default_scale(d_k), "over": 1.0 / d_k}


def query_gradient_norm(weights, key, scale):
    """How strongly the weights move when the query moves: ∥∂p/∂q∥ = ∥J · scale·K∥.

    By the chain rule, the scores s = scale · Kq change by scale·K per unit of q, and the
    weights p = softmax(s) by J = diag(p) − ppᵀ per unit of s; so the size is about
    scale × ∥k∥ × ∥J∥ (with ∥k∥ ≈ √d_k for random keys). The same factors reach each key.

    Parameters
    ----------
    weights : (..., m) softmax weights of one query's row.
    key : (..., m, d_k) the keys of that row.
    scale : the multiplier of the scores.

    Returns
    -------
    (...) array of Frobenius norms.

    >>> float(query_gradient_norm([0.5, 0.5], [[1.0, 0.0], [0.0, 1.0]], 1.0))   # K = I: ∥J∥
    0.5
    """
    slopes = np.asarray(to_numpy(softmax_jacobian(weights)))  # (..., m, m)
    reach = scale * (slopes @ np.asarray(to_numpy(key), dtype=float))  # (..., m, d_k)
    return to_numpy(norm(reach.reshape(*reach.shape[:-2], -1)))  # (...)


def spread_statistics(d_k, size=2000, keys=16, seed=8):
    """What the d_k pictures show for one d_k, under each of the three scalings.

    ``size // keys`` rows are drawn (generator seeded with ``seed``): one query q and
    ``keys`` keys with d_k independent N(0, 1) slots each, giving one row of scores q·k.

    Returns
    -------
    dict with ``d_k``, ``multiplier`` (scaling → number), and, scaling → value:
    ``samples`` ((rows · keys,) scores), ``variance`` of the scores, ``largest_weight`` (mean
    over rows), ``saturated`` (share of rows whose largest weight is ≥ 0.99),
    ``sensitivity`` (median over rows of softmax's ∥J∥), ``sensitivity_mean`` (its mean) and
    ``gradient`` (median over rows of the gradient reaching q, :func:`query_gradient_norm`).

    >>> stats = spread_statistics(64)
    >>> 55 < stats["variance"]["raw"] < 73 and 0.85 < stats["variance"]["scaled"] < 1.15
    True
    >>> stats["saturated"]["raw"] > 0.2, stats["saturated"]["scaled"]   # one-hot rows
    (True, 0.0)
    """
    rng = np.random.default_rng(seed)
    rows = size // keys
    query = rng.standard_normal((rows, 1, d_k))
    key = rng.standard_normal((rows, keys, d_k))
    raw = (query * key).sum(axis=-1)  # (rows, keys): q·k of every pair
    multiplier = scaling_multipliers(d_k)
    stats = {"d_k": d_k, "multiplier": multiplier, "samples": {}, "variance": {},
             "largest_weight": {}, "saturated": {}, "sensitivity": {},
             "sensitivity_mean": {}, "gradient": {}}
    for name, c in multiplier.items():
        weights = to_numpy(softmax(raw * c, axis=-1))  # (rows, keys)
        sizes = to_numpy(jacobian_norm(weights))  # (rows,)
        top = weights.max(axis=-1)  # (rows,)
        stats["samples"][name] = (raw * c).ravel()
        stats["variance"][name] = float(np.var(raw * c))
        stats["largest_weight"][name] = float(top.mean())
        stats["saturated"][name] = float(np.mean(top >= SATURATED))
        stats["sensitivity"][name] = float(np.median(sizes))
        stats["sensitivity_mean"][name] = float(sizes.mean())
        stats["gradient"][name] = float(np.median(query_gradient_norm(weights, key, c)))
    return stats
