"""Exercise of notebook 16: rotary position embedding of one row.

``rope(x, position, base=10000.0)`` turns one row x of d slots (d even) for a token at
``position`` p: slot t pairs with slot t + d/2 (the half-split pairing), and the pair (a, b)
turns by φ = p · base^(−2t/d) into (a cos φ − b sin φ, a sin φ + b cos φ).

Slips (``rope(x, position, base)``):

- neighbouring pairs: slot 2t with slot 2t + 1 (Meta's reference code), not slot t with t + d/2.
- turned the wrong way: the sines' signs swapped, a turn by −φ.
- one angle for every pair: φ = p for all pairs, the frequencies base^(−2t/d) left out.
- exponent t/d: base^(−t/d) instead of base^(−2t/d).
- exponent without the minus: base^(+2t/d), the angles grow instead of shrink.
- position left out: φ = base^(−2t/d), the same turn at every position.
- positions counted from 1: φ = (p + 1) · base^(−2t/d).
- cos and sin swapped: (a sin φ − b cos φ, a cos φ + b sin φ).
- rotate_half without the minus: x cos φ + (b, a) sin φ, which is no rotation.
- only the first half: the d/2 new first slots returned, the partners dropped.
- angles in degrees: φ converted with radians() as if it were in degrees.
- pairs counted from 1: base^(−2(t + 1)/d).
- exponent 4t/d: d/2 used for d in base^(−2t/d).
- turned only pair 0: the loop stops after the first pair.
- each slot its own angle: p · base^(−2i/d) for every slot i, not one per pair.
- angles not repeated: d/2 angles times d slots (ValueError).
- updated a before b: slot t overwritten first, then its new value used to turn slot t + d/2.
- changed its input (the framework's): the row written in place.
"""

import numpy as np

from ..rotary import rotary_embedding
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["ROPE_EXERCISE", "check_rope", "evaluate_rope"]


def _cases():
    rows = [[1.0, 0.0], [1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0, 1.5, -0.5],
            [1.0, -2.0, 0.5, 3.0, -1.0, 0.0, 2.0, 1.0], [2.0, 1.0, -1.0, 0.5]]
    args = [(rows[0], 1, 10000.0), (rows[1], 3, 100.0), (rows[2], 2, 10000.0),
            (rows[3], 5, 10.0), (rows[4], 0, 10000.0), (rows[1], 10, 10000.0),
            (rows[2], 7, 100.0)]
    return [(frozen_array(x), p, b) for x, p, b in args]


def _pairs(x, p, base, angle=None, partner="half", sign=1.0, swap=False, half=False):
    """Turn pairs of x: ``partner`` "half" (t, t + d/2) or "next" (2t, 2t + 1); ``angle``(t, d)
    the turn of pair t (default p · base^(−2t/d))."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    out = np.zeros(d)
    for t in range(d // 2):
        phi = p * base ** (-2 * t / d) if angle is None else angle(t, d)
        i, j = (t, t + d // 2) if partner == "half" else (2 * t, 2 * t + 1)
        a, b = x[i], x[j]
        c, s = (np.sin(phi), np.cos(phi)) if swap else (np.cos(phi), sign * np.sin(phi))
        out[i], out[j] = a * c - b * s, a * s + b * c
    return out[: d // 2] if half else out


def _no_minus(x, p, base):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    phi = np.tile(p * base ** (-np.arange(0, d, 2) / d), 2)
    swapped = np.concatenate([x[d // 2:], x[: d // 2]])  # (b, a): the minus sign left out
    return x * np.cos(phi) + swapped * np.sin(phi)


def _slotwise(x, p, base):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    phi = p * base ** (-2 * np.arange(d) / d)  # one angle per slot, not per pair
    return x * np.cos(phi) + np.concatenate([-x[d // 2:], x[: d // 2]]) * np.sin(phi)


def _overwrote_first(x, p, base):
    x = np.array(x, dtype=float)
    d = x.shape[-1]
    for t in range(d // 2):
        phi = p * base ** (-2 * t / d)
        x[t] = x[t] * np.cos(phi) - x[t + d // 2] * np.sin(phi)
        x[t + d // 2] = x[t] * np.sin(phi) + x[t + d // 2] * np.cos(phi)  # uses the new x[t]
    return x


ROPE_EXERCISE = Exercise(
    "rope(x, position, base)",
    cases=[Case(args) for args in _cases()],
    reference=lambda x, p, base: np.asarray(rotary_embedding(x, p, base=base)),
    rtol=1e-7, atol=1e-9,
    mistakes=[
        Mistake("neighbouring pairs",
                "{call} → {got}: you paired neighbouring slots (2t, 2t + 1), as Meta's "
                "reference Llama code does. Here (as in GPT-NeoX and Hugging Face) slot t pairs "
                "with slot t + d/2: the same rotation with the slots in another order, but a "
                "model trained one way needs that way.",
                imitation=lambda x, p, b: _pairs(x, p, b, partner="next")),
        Mistake("turned the wrong way",
                "{call} → {got}: each pair turned by −φ. The turned pair is "
                "(a cos φ − b sin φ, a sin φ + b cos φ): the minus goes on the first slot.",
                imitation=lambda x, p, b: _pairs(x, p, b, sign=-1.0)),
        Mistake("one angle for every pair",
                "{call} → {got}: every pair turned by the same angle p. Pair t turns by "
                "p · base^(−2t/d): pair 0 fastest, the last pair slowest.",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: p)),
        Mistake("exponent t/d",
                "{call} → {got}: the frequency of pair t is base^(−2t/d), with 2t; you used "
                "base^(−t/d).",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: p * b ** (-t / d))),
        Mistake("exponent without the minus",
                "{call} → {got}: base^(2t/d) grows with t; the frequency is base^(−2t/d), "
                "smaller for every later pair (1 / base^(2t/d)).",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: p * b ** (2 * t / d))),
        Mistake("position left out",
                "{call} → {got}: the turn did not depend on the position. Pair t turns by "
                "position × base^(−2t/d).",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: b ** (-2 * t / d))),
        Mistake("positions counted from 1",
                "{call} → {got}: you turned by (position + 1) · θ_t. Positions count from 0, "
                "and position 0 leaves the row as it is.",
                imitation=lambda x, p, b: _pairs(x, p + 1, b)),
        Mistake("cos and sin swapped",
                "{call} → {got}: cos and sin are swapped. A turn by φ keeps a·cos φ in the "
                "first slot: (a cos φ − b sin φ, a sin φ + b cos φ).",
                imitation=lambda x, p, b: _pairs(x, p, b, swap=True)),
        Mistake("rotate_half without the minus",
                "{call} → {got}: x·cos φ + (b, a)·sin φ is not a rotation (it changes the "
                "length). rotate_half gives (−b, a): the second half with a minus, then the "
                "first half.",
                imitation=_no_minus),
        Mistake("angles in degrees",
                "{call} → {got}: the angle was turned from degrees into radians; φ = p · "
                "base^(−2t/d) is already in radians, as np.cos and np.sin expect.",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: np.radians(
                    p * b ** (-2 * t / d)))),
        Mistake("pairs counted from 1",
                "{call} → {got}: pair t turned by p · base^(−2(t + 1)/d). Pairs count from 0, "
                "so pair 0 turns by p itself (base⁰ = 1).",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: p * b ** (
                    -2 * (t + 1) / d))),
        Mistake("exponent 4t/d",
                "{call} → {got}: the frequency was base^(−2t/(d/2)) = base^(−4t/d), the number "
                "of pairs used for d. Divide by d, the row's full length: base^(−2t/d).",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: p * b ** (
                    -4 * t / d))),
        Mistake("turned only pair 0",
                "{call} → {got}: only the first pair turned. Every pair t turns, by p · "
                "base^(−2t/d): loop over all d/2 pairs.",
                imitation=lambda x, p, b: _pairs(x, p, b, angle=lambda t, d: p if t == 0 else 0.0)),
        Mistake("each slot its own angle",
                "{call} → {got}: slot i of the second half turned by its own p · base^(−2i/d). "
                "Both slots of pair t share ONE angle: repeat the d/2 angles for the two halves "
                "(np.concatenate([phi, phi])).", imitation=_slotwise),
        Mistake("angles not repeated",
                "{call} raised ValueError: the d/2 angles were multiplied with all d slots. "
                "Repeat them for the two halves, np.concatenate([phi, phi]), so both slots of a "
                "pair use the same angle.", detect=lambda outcomes: next((
                    o for o in outcomes if isinstance(o.error, ValueError)
                    and "broadcast" in str(o.error)), None)),
        Mistake("updated a before b",
                "{call} → {got}: slot t was overwritten with a cos φ − b sin φ, and that NEW "
                "value then used for slot t + d/2. Keep a and b first (a, b = x[t], x[t + d//2]), "
                "then write both slots.", imitation=_overwrote_first),
        Mistake("only the first half",
                "{call} → {got}: only d/2 numbers. Both slots of each pair move: return all d.",
                imitation=lambda x, p, b: _pairs(x, p, b, half=True)),
    ],
)


def evaluate_rope(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``rope``."""
    return ROPE_EXERCISE.evaluate(func)


def check_rope(func):
    """Print feedback on a learner's ``rope(x, position, base)``."""
    ROPE_EXERCISE.check(func)
