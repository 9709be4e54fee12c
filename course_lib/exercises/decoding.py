"""Notebook 16: a token's KV-cache memory by hand, slot_of in a paged cache, rope."""

import math

import numpy as np

from .engine import CodeExercise
from .feedback import NoPrediction, slip_rows
from .hand import HandExercise


def _kib(layers, heads, kv_heads, d_k):
    return 2 * layers * kv_heads * d_k * 4 / 1024  # K and V, 4 bytes a float32


def _draw_model(rng):
    kv_heads = int(rng.choice([3, 5, 6, 8]))  # 2 or 4: two slips coincide
    return {"layers": int(rng.choice([16, 24, 28, 32, 40, 48, 80])),
            "heads": kv_heads * int(rng.choice([2, 3, 4, 6])), "kv_heads": kv_heads,
            "d_k": int(rng.choice([64, 128, 256]))}


def cache_slips(answer, rows):
    """Slips of rows (name, hint, factor): the answer × factor (or factor(givens))."""
    return slip_rows(rows, lambda f: lambda **g: answer(**g) * (f(g) if callable(f) else f))


CACHE_TWINS = [
    ("all query heads, keys only", "only the {kv_heads} key/value heads are cached, a key AND a "
     "value row each.", lambda g: g["heads"] / g["kv_heads"] / 2),
    ("the width for d_k", "d_k = {d_k} is one head's width.", lambda g: g["heads"]),
    ("query heads × key/value heads", "only the {kv_heads} key/value heads count.",
     lambda g: g["heads"]),
    ("one layer, all query heads", "{layers} layers × {kv_heads} key/value heads.",
     lambda g: g["heads"] / g["kv_heads"] / g["layers"])]

CACHE_ROWS = [  # the slips of any KV-cache size, as multiples of the answer
    ("keys only", "a token caches a key row AND a value row (the 2).", 1 / 2),
    ("queries cached too", "{got} counts Q, K and V: only K and V are cached.", 3 / 2),
    ("bytes per number left out", "a float32 takes 4 bytes.", 1 / 4),
    ("all query heads", "the {heads} query heads share {kv_heads} key/value heads: only those are "
     "cached.", lambda g: g["heads"] / g["kv_heads"]),
    ("one layer only", "each of the {layers} layers keeps its own.", lambda g: 1 / g["layers"]),
    ("one key/value head", "each layer has {kv_heads}.", lambda g: 1 / g["kv_heads"]),
    ("d_k left out", "each row has {d_k} numbers.", lambda g: 1 / g["d_k"]),
    ("8 bytes a float32", "a float32 is 4 bytes (8 is float64).", 2),
]

_CACHE_HAND_SLIPS = cache_slips(_kib, CACHE_ROWS + [
    ("bytes, not KiB", "divide the bytes by 1024.", 1024),
    ("MiB, not KiB", "divide by 1024 once.", 1 / 1024),
    ("numbers, not KiB", "times 4 bytes, ÷ 1024.", 256)])


CACHE_HAND = HandExercise(
    "cache memory by hand", "the KiB one token adds to the cache ({layers} layers, {heads} query "
    "heads, {kv_heads} key/value heads, d_k = {d_k}, float32)",
    _kib, {"layers": 32, "heads": 32, "kv_heads": 8, "d_k": 128}, _CACHE_HAND_SLIPS,
    draw=_draw_model, tolerance=0.5,
    twins=cache_slips(_kib, CACHE_TWINS + [
        ("2 bytes a number", "a float32 is 4 bytes (2 is float16).", 1 / 2)]))


def _slot(position, block_table, page_size):
    return (block_table[position // page_size], position % page_size)


def _at_the_end(p, t, s):  # `<=`: a block's first slot read as the last one's end
    if p and p % s == 0:
        return (t[p // s - 1], s)
    raise NoPrediction


_T5, _T3 = [7, 2, 9, 4, 6], [3, 0, 5]  # physical block of logical block i
_BLOCK = "logical block i holds positions i × page_size … (i + 1) × page_size − 1"
_LEFT = "the offset is what is left, position % page_size."

_SLOT_SLIPS = [
    ("no look-up in the table", "position // page_size is the LOGICAL block: look it up.",
     lambda p, t, s: (p // s, p % s)),
    ("block and offset swapped", "the physical block comes first, then the offset.",
     lambda p, t, s: _slot(p, t, s)[::-1]),
    ("the block only", "return the pair (block, offset).", lambda p, t, s: t[p // s]),
    ("the flat slot number", "return the block and position % page_size, not the flat slot.",
     (lambda p, t, s: t[p // s] * s + p % s, lambda p, t, s: (t[p // s], t[p // s] * s + p % s))),
    ("page_size − 1 slots a block", "a block holds page_size slots.",
     lambda p, t, s: (t[p // (s - 1)], p % s)),
    ("// and % swapped", "`//` counts the blocks, `%` what is left.",
     lambda p, t, s: (t[p % s], p // s)),
    ("rounded the division", "round() or ceil() can jump to the next block: `//` rounds "
     "down.", (lambda p, t, s: (t[round(p / s)], p % s),
               lambda p, t, s: (t[math.ceil(p / s)], p % s))),
    ("the table read at the position", "block_table has one entry a BLOCK: read it at position "
     "// page_size.", (lambda p, t, s: (t[p] // s, p % s), lambda p, t, s: (t[p % len(t)], p % s))),
    ("searched the table", "`.index` searches for a block number: read block_table at position "
     "// page_size.", lambda p, t, s: (t.index(p // s), p % s)),
    ("ceil(…) − 1", "one block short at a block's first position: `//`.",
     lambda p, t, s: (t[math.ceil(p / s) - 1], p % s)),
    ("// for the offset", _LEFT, lambda p, t, s: (t[p // s], p // s)),
    ("the next block", f"{_BLOCK}: no + 1 after the `//`.", lambda p, t, s: (t[p // s + 1], p % s)),
    ("the previous block", f"{_BLOCK}: no − 1 after the `//`.",
     lambda p, t, s: (t[p // s - 1], p % s)),
    ("counted from 1", "position 0 is slot 0 of block 0: no ± 1.",
     (lambda p, t, s: (t[(p - 1) // s], (p - 1) % s), lambda p, t, s: (t[p // s], p % s + 1))),
    ("offset from the physical block", "count from the LOGICAL block: " + _LEFT,
     lambda p, t, s: (t[p // s], p - t[p // s] * s)),
    ("subtracted one page", "ALL whole blocks come off: " + _LEFT,
     lambda p, t, s: (t[p // s], p - s)),
    ("subtracted the block count", "take off the blocks' SLOTS, not their count: " + _LEFT,
     lambda p, t, s: (t[p // s], p - p // s)),
    ("the table's length for page_size", "a block holds page_size slots.",
     (lambda p, t, s: (t[p // len(t)], p % s), lambda p, t, s: (t[p // s], p % len(t)),
      lambda p, t, s: (t[p // len(t)], p % len(t)))),
    ("<= at a block's end", f"{_BLOCK}: the test is position < (i + 1) × page_size.", _at_the_end),
]

SLOT_OF = CodeExercise(
    "slot_of", "slot_of(position, block_table, page_size)",
    [(0, _T5, 4), (3, _T5, 4), (4, _T5, 4), (6, _T5, 4), (13, _T5, 4), (19, _T5, 4),
     (17, _T3, 16), (40, _T3, 16), (9, [6, 1, 8, 3, 5], 2), (2, [11], 3)],
    _slot, _SLOT_SLIPS)


def _turn(x, position, base, angle=None, pairs="half", sign=1.0, swap=False, b_sign=1.0):
    """Each pair t of x turned by φ = p · base^(−2t/d) (or ``angle``); a keyword: a slip."""
    d = len(x)
    out = [0.0] * d
    for t in range(d // 2):
        phi = position * base ** (-2 * t / d) if angle is None else angle(position, t, d, base)
        i, j = (t, t + d // 2) if pairs == "half" else (2 * t, 2 * t + 1)
        c, s = math.cos(phi), sign * math.sin(phi)
        c, s = (s, c) if swap else (c, s)
        out[i], out[j] = x[i] * c - x[j] * s, x[i] * s + b_sign * x[j] * c
    return out


def _stale(x, position, base):  # slot t overwritten before t + d/2 is made
    x, half = list(x), len(x) // 2
    for t in range(half):
        phi = position * base ** (-2 * t / len(x))
        x[t] = x[t] * math.cos(phi) - x[t + half] * math.sin(phi)
        x[t + half] = x[t] * math.sin(phi) + x[t + half] * math.cos(phi)
    return x


def _angle(formula):
    return lambda x, p, base: _turn(x, p, base, angle=formula)


def _with(**how):
    return lambda x, p, base: _turn(x, p, base, **how)


_ROPE_SLIPS = [
    ("neighbouring pairs", "here pair t is slot t with slot t + d/2.", _with(pairs="next")),
    ("turned the wrong way", "the minus goes on the first slot, a cos φ − b sin φ.",
     _with(sign=-1.0)),
    ("cos and sin swapped", "a turn by φ keeps a·cos φ in the first slot.", _with(swap=True)),
    ("the sign of b cos φ", "the second slot is a sin φ + b cos φ.", _with(b_sign=-1.0)),
    ("position and t swapped", "pair t turns by position × base^(−2t/d).",
     _angle(lambda p, t, d, b: t * b ** (-2 * p / d))),
    ("exponent without the minus", "the speed is base^(−2t/d).",
     _angle(lambda p, t, d, b: p * b ** (2 * t / d))),
    ("exponent t/d", "the exponent is −2t/d, with 2t.",
     _angle(lambda p, t, d, b: p * b ** (-t / d))),
    ("the exponent without brackets", "`**` binds first: base ** (-2 * t / d).",
     (_angle(lambda p, t, d, b: p * b ** -2 * t / d),
      _angle(lambda p, t, d, b: p * b ** (-2 * t) / d))),
    ("exponent 4t/d", "divide 2t by d, not d/2.", _angle(lambda p, t, d, b: p * b ** (-4 * t / d))),
    ("// in the exponent", "−2 // 4 is −1: write -2 * t / d.",
     _angle(lambda p, t, d, b: p * b ** (-2 * t // d))),
    ("position left out", "pair t turns by position × base^(−2t/d).",
     _angle(lambda p, t, d, b: b ** (-2 * t / d))),
    ("positions counted from 1", "position 0 leaves the row as it is.",
     _angle(lambda p, t, d, b: (p + 1) * b ** (-2 * t / d))),
    ("pairs counted from 1", "pair 0 turns by the position itself.",
     _angle(lambda p, t, d, b: p * b ** (-2 * (t + 1) / d))),
    ("degrees and radians", "φ is in radians already: no conversion.",
     (_angle(lambda p, t, d, b: math.radians(p * b ** (-2 * t / d))),
      _angle(lambda p, t, d, b: math.degrees(p * b ** (-2 * t / d))))),
    ("only the first slot of each pair", "write slot t AND slot t + d/2; return all d.",
     (lambda x, p, base: _turn(x, p, base)[:len(x) // 2],
      lambda x, p, base: _turn(x, p, base)[:len(x) // 2] + x[len(x) // 2:])),
    ("updated a before b", "take a, b = x[t], x[t + d // 2] first; write a new list.", _stale),
    ("the new slots swapped", "the new a goes back in slot t, the new b in slot t + d/2.",
     lambda x, p, base: (lambda r, h: r[h:] + r[:h])(_turn(x, p, base), len(x) // 2)),
    ("stopped after the first pair", "the `return` is inside the loop: one indent less.",
     lambda x, p, base: (lambda r, h: [r[0], *x[1:h], r[h], *x[h + 1:]])(
         _turn(x, p, base), len(x) // 2)),
]

ROPE = CodeExercise(
    "rope", "rope(x, position, base)",
    [([1.0, 0.0], 1, 10000.0), ([0.5, -1.5], 3, 10000.0), ([1.0, 2.0, -0.5, 0.25], 0, 10000.0),
     ([1.0, 2.0, -0.5, 0.25], 2, 100.0),
     ([0.3, -1.2, 0.7, 2.0, -0.4, 1.1], 5, 100000.0),
     ([0.5, 1.5, -2.0, 0.75, 1.25, -0.5, 2.5, 0.1], 7, 500000.0),
     ([2.0, -1.0, 0.5, 1.5], 100, 10000.0), ([0.5, -1.0, 2.0, 0.0, 1.5, -0.5], 2, 10.0)],
    _turn, _ROPE_SLIPS)

def _merged(o1, a, o2, b):  # chunk c's weight is e^LSE_c: a and b
    return (a * o1 + b * o2) / (a + b)


def _draw_chunks(rng):
    o1, o2 = (int(x) for x in rng.choice(np.r_[-5:0, 1:10], size=2, replace=False))
    a, b = (int(x) for x in rng.choice(np.arange(2, 7), size=2, replace=False))
    return {"o1": o1, "a": a, "o2": o2, "b": b}


_TOTAL = "divide by e^LSE = {a} + {b}, the sum of the two weights."

MERGE_HAND = HandExercise(
    "merged chunks by hand", "o merged from chunk 0 (o₀ = {o1}, LSE₀ = ln {a}) and chunk 1 "
    "(o₁ = {o2}, LSE₁ = ln {b})",
    _merged, {"o1": 2, "a": 3, "o2": 7, "b": 2}, draw=_draw_chunks, slips=[
        ("the plain mean", "chunk c weighs e^LSE_c, not ½.", lambda o1, a, o2, b: (o1 + o2) / 2),
        ("not divided by the total", "{got} is e^LSE₀ o₀ + e^LSE₁ o₁: " + _TOTAL,
         lambda o1, a, o2, b: a * o1 + b * o2),
        ("the weights swapped", "o₀ goes with its own chunk's weight, e^LSE₀ = {a} (e^(−LSE) "
         "swaps them too).", lambda o1, a, o2, b: _merged(o1, b, o2, a)),
        ("divided by the number of chunks", "{got} divides by 2: " + _TOTAL,
         lambda o1, a, o2, b: (a * o1 + b * o2) / 2),
        ("one chunk only", "the keys of both chunks count.",
         (lambda o1, a, o2, b: o1, lambda o1, a, o2, b: o2)),
        ("one term only", "{got} is one chunk's term: add the other's.",
         (lambda o1, a, o2, b: a * o1 / (a + b), lambda o1, a, o2, b: b * o2 / (a + b))),
        ("the logsumexps as weights", "a chunk weighs e^LSE_c = {a} and {b}, not LSE_c.",
         lambda o1, a, o2, b: _merged(o1, math.log(a), o2, math.log(b))),
        ("added the outputs", "o is a weighted MEAN of o₀ and o₁.", lambda o1, a, o2, b: o1 + o2),
    ])

EXERCISES = [CACHE_HAND, MERGE_HAND, SLOT_OF, ROPE]
