"""Sliding-window masks: each query sees only its ``window`` most recent keys.

Models such as Mistral 7B (Jiang et al. 2023, a window of 4096 tokens) and Longformer's local
attention (Beltagy et al. 2020) bound how far back a query looks. The mask is a band: the
causal mask minus everything more than ``window − 1`` positions back. With a cache, only the
last ``window`` keys and values ever need keeping.
"""

from .masks import causal_mask
from .validation import check_count

__all__ = ["sliding_window_mask"]


def sliding_window_mask(n, window, m=None, *, like=None):
    """(n, m) boolean mask, True where 0 ≤ (i + m − n) − j < window (bottom-right aligned).

    Query i is the token at position i + m − n (the last n of m positions, as when decoding
    with a cache); it sees itself and the ``window − 1`` keys before it. With n = m that is
    i − window < j ≤ i. ``window`` ≥ m gives the bottom-right causal mask.

    >>> sliding_window_mask(4, 2).astype(int).tolist()
    [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]
    >>> sliding_window_mask(1, 2, m=4).astype(int).tolist()   # the newest of 4 tokens
    [[0, 0, 1, 1]]
    """
    window = check_count(window, "window")
    m = n if m is None else m
    past = causal_mask(n, m, align="bottom-right", like=like)  # j ≤ i + m − n
    too_old = causal_mask(n, m, diagonal=m - n - window, like=like)  # j ≤ i + m − n − window
    return past & ~too_old
