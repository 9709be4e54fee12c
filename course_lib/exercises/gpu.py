"""Notebook 15: a block's shared memory by hand, largest_key_block, a row's barriers by hand."""

import math
import operator

from .engine import CodeExercise
from .feedback import no_prediction as _no
from .feedback import slip_rows
from .hand import HandExercise


def _bytes(d_k, key_block, per_key=1, query=1, tile=1, size=4):
    # float32: the query row, key rows padded by one number, one score per key
    return size * (query * d_k + key_block * (d_k + per_key) + tile * key_block)


def _rows(formula, rows):  # each form: the keywords of formula that make the slip
    return slip_rows(rows, lambda how: lambda *args, **givens: formula(*args, **givens, **how))


_SHARED_SLIPS = _rows(_bytes, [
    ("the key rows' padding left out", "count each key row's padding (d_k + 1) AND the tile "
     "of {key_block} scores.", {"per_key": 0}),
    ("the query row left out", "the scaled query row sits in shared memory too (d_k numbers).",
     {"query": 0}),
    ("numbers, not bytes", "a float32 takes 4 bytes.", {"size": 1}),
    ("8 bytes a float32", "a float32 is 4 bytes (8 is float64).", {"size": 8}),
    ("2 bytes a float32", "the kernel computes in float32, 4 bytes.", {"size": 2}),
]) + [
    ("the query row padded", "only the key rows are padded; the query row is d_k numbers.",
     lambda **g: _bytes(**g) + 4),
    ("padding counted once", "each key row has its own padding number: key_block · (d_k + 1).",
     lambda **g: _bytes(**g, per_key=0) + 4),
    ("d_k and key_block swapped", "there are key_block = {key_block} rows of d_k + 1 = "
     "{d_k} + 1 numbers.", lambda d_k, key_block: _bytes(key_block, d_k)),
    ("only the key rows", "add the query row and the tile, and pad each key row: 4 · (d_k + "
     "key_block · (d_k + 1) + key_block).",
     (lambda d_k, key_block: 4 * key_block * d_k,
      lambda d_k, key_block: 4 * key_block * (d_k + 1))),
    ("KiB, not bytes", "the question asks for bytes: no ÷ 1024 (or 1000).",
     (lambda **g: _bytes(**g) / 1024, lambda **g: _bytes(**g) / 1000)),
]

SHARED_HAND = HandExercise(
    "shared memory by hand", "the bytes of shared memory of one thread block (d_k = {d_k}, "
    "key_block = {key_block})", _bytes, {"d_k": 128, "key_block": 64}, _SHARED_SLIPS,
    tolerance=0.5)


def _largest(d_k, threads, limit):
    block = 1 << (threads.bit_length() - 1)  # the largest power of two <= threads
    while block >= 1 and _bytes(d_k, block) > limit:
        block //= 2
    return block


def _halving(fits=operator.le, first=lambda t: t, swap=False, **how):  # the slip's keywords
    def largest(d_k, threads, limit):
        block = first(threads)
        while block >= 1 and not fits(_bytes(*((block, d_k) if swap else (d_k, block)), **how),
                                      limit):
            block //= 2
        return block
    return largest


def _any_size(d_k, threads, limit):  # the largest whole number of keys, not a power of two
    return max(0, min(threads, (limit // 4 - d_k) // (d_k + 2)))


def _doubled(d_k, threads, limit, past, none):  # doubled from 1 while it fits: one too far
    block = 1
    while _bytes(d_k, block) <= limit and block < threads + past:
        block *= 2
    return block if _bytes(d_k, 1) <= limit else none


_BLOCK_SLIPS = [
    ("doubled one step too far", "it stops at the first block that does NOT fit: return the one "
     "before.", tuple(lambda *a, p=p, n=n: _doubled(*a, p, n) for p in (0, 1)
                        for n in (0, 1))),
    ("stopped after one halving", "a `return` in the loop, or `if` where `while` repeats?",
     lambda d, t, lim: t if _bytes(d, t) <= lim else t // 2),
    ("a block that fits exactly refused", "a block of exactly {limit} bytes fits: "
     "bytes ≤ limit.", _halving(operator.lt)),
    ("returned the bytes", "return the number of keys, not the bytes they take.",
     lambda d, t, lim: _bytes(d, _largest(d, t, lim)) if _largest(d, t, lim) else _no()),
    ("the key rows' padding left out", "count each key row's padding (d_k + 1) AND the tile "
     "of key_block scores.", _halving(per_key=0)),
    ("the loop's test turned round", "halve while the block does NOT fit: while block ≥ 1 "
     "and bytes > limit.", _halving(operator.gt)),
    ("numbers, not bytes", "a float32 takes 4 bytes.", _halving(size=1)),
    ("started at threads / 2", "start at block = threads: a block of {threads} keys may fit.",
     _halving(first=lambda t: t // 2)),
    ("no cap at threads", "thread t scores key j0 + t: the block has at most {threads} keys.",
     _halving(first=lambda t: 1024)),
    ("the query row left out", "the scaled query row sits in shared memory too.",
     _halving(query=0)),
    ("1 when nothing fits", "when not one key fits the answer is 0: let the loop go below 1.",
     lambda d, t, lim: max(1, _largest(d, t, lim))),
    ("not a power of two", "the halving max needs a power of two: 1, 2, 4, 8, …", _any_size),
    ("d_k and key_block swapped", "key_block rows of d_k + 1 numbers: key_block × (d_k + 1).",
     _halving(swap=True)),
]

BLOCK = CodeExercise(
    "largest key block", "largest_key_block(d_k, threads, limit)",
    [(64, 64, 49152), (64, 1024, 49152), (128, 256, 49152), (512, 64, 49152),
     (64, 64, 17152), (96, 512, 65536), (8000, 64, 49152), (32, 32, 232448),
     (256, 1024, 101376), (16, 128, 1000), (128, 32, 17100), (128, 32, 16800),
     (128, 32, 17026), (256, 64, 16896), (64, 64, 17154), (128, 64, 34000)],
    _largest, _BLOCK_SLIPS, whole=True,
    quantities={"threads": lambda d_k, threads, limit: threads,
                "limit": lambda d_k, threads, limit: limit})


def _barriers(m, key_block, tiles=math.ceil, rounds=math.log2, per_tile=4, per_row=1):
    """(a) once a row; each tile (b), (c), (e), (f) and a (d) per halving round."""
    return per_row + tiles(m / key_block) * (per_tile + rounds(key_block))


_TILE = "a tile waits at (b), (c), (e), (f) and once per halving round: log₂ {key_block} rounds."
_ROUND = "barrier (d) is inside the halving loop: once per round."
_BARRIER_SLIPS = _rows(_barriers, [
    ("(a) left out", "the query row is written first: barrier (a) before the first tile.",
     {"per_row": 0}),
    ("(a) in every tile", "(a) is before the loop over tiles: once a row.",
     {"per_row": 0, "per_tile": 5}),
    ("tiles rounded down", "the last tile is short but still runs: ⌈{m} / {key_block}⌉.",
     {"tiles": math.floor}),
    ("a barrier missing from each tile", _TILE,
     ({"per_tile": 3}, {"rounds": lambda b: math.log2(b) - 1})),
    ("a barrier too many in each tile", _TILE,
     ({"per_tile": 5}, {"rounds": lambda b: math.log2(b) + 1})),
    ("no halving rounds", _ROUND, {"rounds": lambda b: 0}),
    ("(d) once a tile", _ROUND, {"rounds": lambda b: 1}),
    ("halving rounds counted as keys", "half is halved each round: log₂ {key_block} rounds.",
     ({"rounds": lambda b: b / 2}, {"rounds": lambda b: b})),
    ("one tile", "the threads walk all {m} keys, {key_block} at a time.", {"tiles": lambda x: 1}),
])

_BARRIER_SLIPS += [
    ("tiles as a fraction", "the short last tile runs whole: ⌈{m} / {key_block}⌉ tiles.",
     (lambda **g: _barriers(**g, tiles=float), lambda **g: round(_barriers(**g, tiles=float)))),
    ("the halving rounds once a row", "(d) waits in every tile.",
     lambda **g: _barriers(**g, rounds=lambda b: 0) + math.log2(g["key_block"])),
]

BARRIER_HAND = HandExercise(
    "barriers by hand", "the __syncthreads() one query row waits at (m = {m} keys, key_block = "
    "{key_block}, no mask)", _barriers, {"m": 1000, "key_block": 128}, _BARRIER_SLIPS,
    tolerance=0.1)

EXERCISES = [SHARED_HAND, BLOCK, BARRIER_HAND]
