"""Masks: which keys each query may look at (True = may attend, as in PyTorch's ``attn_mask``).

A mask is applied to the *scores*, before the softmax: a blocked score becomes −∞, so its
weight is exactly 0 and the remaining weights of the row still sum to 1. Two masks cover most
uses: the causal mask (no peeking at later positions) and the padding mask (ignore the filler
at the end of shorter sequences in a batch).
"""

import numpy as np

from .backend import asarray, get_array_module
from .validation import check_count

__all__ = ["additive_mask", "apply_mask", "causal_mask", "padding_mask"]


def causal_mask(n, m=None, *, align="top-left", diagonal=0, like=None):
    """(n, m) boolean mask with True where key j ≤ query i: each position sees itself and the past.

    Top-left aligned by default, like ``is_causal=True`` in :func:`scaled_dot_product_attention`
    (and PyTorch), also when n ≠ m.

    Parameters
    ----------
    n : number of queries (rows), 0 or more.
    m : number of keys (columns), at least 1; default n.
    align : "top-left" (query i sees keys 0 … i) or "bottom-right" (the n queries are the last
        n of the m positions, as when decoding with a cache: query i sees keys 0 … i + m − n).
    diagonal : True where j ≤ i + diagonal. A block of the causal mask for queries i0… and keys
        j0… is ``causal_mask(rows, cols, diagonal=i0 - j0)`` (tiled attention uses this).
    like : an array whose library (NumPy or CuPy) the mask is made in; default the chosen
        backend.

    >>> causal_mask(3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    >>> causal_mask(2, 3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0]]
    >>> causal_mask(2, 3, align="bottom-right").astype(int).tolist()
    [[1, 1, 0], [1, 1, 1]]
    """
    n = check_count(n, "n", minimum=0)
    m = n if m is None else check_count(m, "m")
    diagonal = check_count(diagonal, "diagonal", minimum=None)
    if align not in ("top-left", "bottom-right"):
        raise ValueError(f'align must be "top-left" or "bottom-right"; got {align!r}')
    if align == "bottom-right":
        diagonal += m - n  # the last query sits at the last key
    if like is None:
        return asarray(np.tri(n, m, k=diagonal, dtype=bool))
    return get_array_module(like).tri(n, m, k=diagonal, dtype=bool)  # key j allowed when j ≤ i


def apply_mask(scores, mask, *, out=None):
    """The scores the softmax sees: blocked scores become −∞ (boolean mask, True = may attend),
    or the float mask is added (0 keeps a score, −∞ blocks it).

    Parameters
    ----------
    scores : (..., n, m)
    mask : None, or boolean / float broadcasting to (..., n, m).
    out : None for a new array, or the array to write the masked scores into, of their
        broadcast shape; ``out=scores`` masks in place (the fast functions do this on a buffer
        they reuse).

    >>> apply_mask(np.array([[1.0, 2.0]]), np.array([[True, False]])).tolist()
    [[1.0, -inf]]
    """
    xp = get_array_module(scores)
    if out is None:
        if mask is None:
            return scores
        out = xp.empty(np.broadcast_shapes(scores.shape, mask.shape), dtype=scores.dtype)
    if out is not scores:
        out[...] = scores  # (..., n, m)
    if mask is not None and mask.dtype == bool:
        xp.copyto(out, -xp.inf, where=~mask)  # a blocked score is −∞: its weight is exactly 0
    elif mask is not None:
        out += mask  # 0 keeps a score, −∞ blocks it
    return out


def padding_mask(lengths, m):
    """(batch, 1, m) boolean mask: sequence b may attend to its first ``lengths[b]`` keys only.

    The keys past a sequence's length are padding (filler that makes every sequence of the batch
    m long); nobody should attend to them. The middle axis of size 1 broadcasts over the n
    queries, so the mask fits scores of shape (batch, n, m).

    Parameters
    ----------
    lengths : (batch,) integers, each between 0 and m (0 leaves nothing to attend to: that row's
        weights and output are zeros).
    m : number of keys (the padded length).

    >>> padding_mask([2, 3], 4).astype(int).tolist()
    [[[1, 1, 0, 0]], [[1, 1, 1, 0]]]
    """
    m = check_count(m, "m")
    xp = get_array_module(lengths)
    lengths = xp.asarray(lengths)
    if lengths.ndim != 1 or not np.issubdtype(lengths.dtype, np.integer):
        raise ValueError(f"lengths must be a 1-D array of integers (one per sequence); got shape "
                         f"{lengths.shape} and dtype {lengths.dtype}")
    if lengths.size and bool(((lengths < 0) | (lengths > m)).any()):
        raise ValueError(f"every length must be between 0 and m = {m}; got "
                         f"{[int(x) for x in lengths.tolist()]}")
    positions = xp.arange(m)  # (m,)
    mask = positions[None, None, :] < lengths[:, None, None]  # (batch, 1, m)
    return mask if xp is not np else asarray(mask)


def additive_mask(mask, dtype=np.float64):
    """Turn a boolean mask (True = may attend) into the float mask added to the scores: 0 or −∞.

    ``scores + additive_mask(mask)`` and "replace the blocked scores by −∞" are the same thing.

    >>> additive_mask([[True, False]]).tolist()
    [[0.0, -inf]]
    """
    xp = get_array_module(mask)
    mask = xp.asarray(mask)
    if mask.dtype != bool:
        raise TypeError(f"mask must be boolean (True = may attend); got dtype {mask.dtype}")
    keep, block = (xp.asarray(value, dtype=dtype) for value in (0.0, -np.inf))
    return xp.where(mask, keep, block)  # (...), in ``dtype`` from the start
