"""Notebook 16's exercises (course_lib/exercises/decoding.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other styles
accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate, exercise
from course_lib.exercises.engine import TUPLE
from course_lib.rotary import rotary_embedding

# --- the cache's memory per token, by hand: 32 layers, 8 key/value heads, d_k = 128, float32 --


def test_cache_memory_by_hand_slips():
    assert_named("cache memory by hand", {
        "keys only": [128, "128"], "bytes per number left out": [64],
        "all query heads": [1024], "one layer only": [8], "bits, not bytes": [2048],
        "1000 bytes a KiB": [262.144, 262], "bytes, not KiB": [262144],
        "MiB, not KiB": [0.25], "queries cached too": [384],
        "one key/value head": [32], "numbers, not KiB": [65536], "d_k left out": [2],
        "sign turned round": [-256], "decimal point moved": [25.6, 2560],
        "8 bytes a float32": [512], "the width for d_k": [8192],
        "query heads × key/value heads": [8192],
    })


def test_a_number_two_slips_give_names_both():
    assert evaluate("cache memory by hand", 512).mistake == (
        "8 bytes a float32 / all query heads, keys only")
    assert evaluate("model cache by hand", 69120).mistake == (
        "queries cached too / all query heads, keys only")


def test_cache_memory_by_hand_accepts_the_answer_in_any_form():
    assert_passes("cache memory by hand", [256, "256", 256.0, 255.8])  # "256": the box's text


def test_a_fresh_variant_knows_the_notebooks_numbers():
    variants = [exercise("cache memory by hand").variant(seed) for seed in range(1, 9)]
    fresh = [v for v in variants if abs(float(v.answer) - 256) > 1]
    assert fresh
    for variant in fresh:
        assert variant.evaluate(variant.answer.tolist()).passed
        assert variant.evaluate(256).mistake == "the notebook's numbers", variant.title


# --- slot_of(position, block_table, page_size) -> (physical block, offset) -----------------


def slot_loop(position, block_table, page_size):
    for i in range(len(block_table)):
        if position < (i + 1) * page_size:
            return (block_table[i], position - i * page_size)
    raise IndexError("the table holds no block for this position")


def slot_loop_le(position, block_table, page_size):
    for i in range(len(block_table)):
        if position <= (i + 1) * page_size:
            return (block_table[i], position - i * page_size)


def slot_offset_from_physical(position, block_table, page_size):
    block = block_table[int(position / page_size)]
    return (block, position - block * page_size)


def slot_printed(position, block_table, page_size):
    print(block_table[position // page_size], position % page_size)


def slot_grows_the_table(position, block_table, page_size):
    block_table.append(0)
    return (block_table[position // page_size], position % page_size)


def test_slot_of_accepts_other_right_answers():
    assert_passes("slot_of", [
        slot_loop, lambda p, table, size: (table[int(p / size)], p - (p // size) * size),
        lambda p, table, size: tuple(int(v) for v in (np.asarray(table)[p // size], p % size)),
    ])
    assert_named("slot_of", {TUPLE: [lambda p, table, size: [table[p // size], p % size]]},
                 minimum=1)  # the prompt asks for a pair: right numbers in a list are named


def test_slot_of_slips():
    assert_named("slot_of", {
        "no look-up in the table": [lambda p, table, size: (p // size, p % size),
                                    lambda p, table, size: np.array([p // size, p % size])],
        "block and offset swapped": [lambda p, table, size: (p % size, table[p // size])],
        "the block only": [lambda p, table, size: table[p // size]],
        "the flat slot number": [lambda p, table, size: table[p // size] * size + p % size,
                                 lambda p, t, size: (t[p // size], t[p // size] * size + p % size)],
        "page_size − 1 slots a block": [lambda p, t, size: (t[p // (size - 1)], p % size)],
        "// and % swapped": [lambda p, table, size: (table[p % size], p // size)],
        "a float for a whole number": [lambda p, table, size: (table[p / size], p % size)],
        "subtracted the block count": [lambda p, table, size: (table[p // size], p - p // size)],
        "the table read at the position": [
            lambda p, table, size: (table[p % len(table)], p % size)],
        "rounded the division": [lambda p, table, size: (table[round(p / size)], p % size)],
        "the next block": [lambda p, table, size: (table[p // size + 1], p % size)],
        "the previous block": [lambda p, table, size: (table[p // size - 1], p % size)],
        "counted from 1": [lambda p, table, size: (table[(p - 1) // size], (p - 1) % size),
                           lambda p, table, size: (table[p // size], p % size + 1)],
        "offset from the physical block": [slot_offset_from_physical],
        "subtracted one page": [lambda p, table, size: (table[p // size], p - size)],
        "the table's length for page_size": [
            lambda p, table, size: (table[p // len(table)], p % size),
            lambda p, table, size: (table[p // size], p % len(table)),
            lambda p, table, size: (table[p // len(table)], p % len(table))],
        "<= at a block's end": [slot_loop_le],
        "ceil(…) − 1": [lambda p, table, size: (table[math.ceil(p / size) - 1], p % size)],
        "// for the offset": [lambda p, table, size: (table[p // size], p // size)],
        "printed instead of returning": [slot_printed],
        "returned text": [lambda p, table, size: f"{table[p // size]}, {p % size}"],
        "not numbers": [lambda p, table, size: {"block": table[p // size], "offset": p % size}],
        "the wrong shape": [lambda p, table, size: (p // size, table[p // size], p % size)],
        "changed its input": [slot_grows_the_table],
    })


# --- rope(x, position, base) ---------------------------------------------------------------


def rope_loop(x, position, base, new_slots_swapped=False, return_in_the_loop=False):
    """The loop a learner writes; the keywords switch on a slip."""
    d = len(x)
    half = d // 2
    out = list(x) if return_in_the_loop else [0.0] * d
    for t in range(half):
        phi = position * base ** (-2 * t / d)
        a, b = x[t], x[t + half]
        new = a * math.cos(phi) - b * math.sin(phi), a * math.sin(phi) + b * math.cos(phi)
        out[t], out[t + half] = new[::-1] if new_slots_swapped else new
        if return_in_the_loop:
            return out
    return out


def rope_numpy(x, position, base):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    phi = position * base ** (-2 * np.arange(half) / len(x))
    phi = np.concatenate([phi, phi])
    return x * np.cos(phi) + np.concatenate([-x[half:], x[:half]]) * np.sin(phi)


def rope_with(angle=None, pairs="half", sign=1.0):
    def rope(x, position, base):
        d = len(x)
        out = [0.0] * d
        for t in range(d // 2):
            phi = position * base ** (-2 * t / d) if angle is None else angle(position, t, d,
                                                                                base)
            i, j = (t, t + d // 2) if pairs == "half" else (2 * t, 2 * t + 1)
            c, s = math.cos(phi), sign * math.sin(phi)
            out[i], out[j] = x[i] * c - x[j] * s, x[i] * s + x[j] * c
        return out
    return rope


def rope_float_half(x, position, base):
    d, out = len(x), list(x)
    half = d / 2
    for t in range(half):
        phi = position * base ** (-2 * t / d)
        a, b = x[t], x[t + d // 2]
        out[t], out[t + d // 2] = a * math.cos(phi) - b * math.sin(phi), a * math.sin(
            phi) + b * math.cos(phi)
    return out


def rope_float_index(x, position, base):  # x[t + d / 2]: an index that is a float
    d = len(x)
    out = list(x)
    for t in range(d // 2):
        phi = position * base ** (-2 * t / d)
        a, b = x[t], x[t + d / 2]
        out[t] = a * math.cos(phi) - b * math.sin(phi)
        out[t + d // 2] = a * math.sin(phi) + b * math.cos(phi)
    return out


def rope_minus_b_cos(x, position, base):
    d = len(x)
    out = list(x)
    for t in range(d // 2):
        phi = position * base ** (-2 * t / d)
        a, b = x[t], x[t + d // 2]
        out[t] = a * math.cos(phi) - b * math.sin(phi)
        out[t + d // 2] = a * math.sin(phi) - b * math.cos(phi)
    return out


def rope_rotate_half_backwards(x, position, base):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    phi = np.tile(position * base ** (-2 * np.arange(half) / len(x)), 2)
    return x * np.cos(phi) + np.concatenate([x[half:], -x[:half]]) * np.sin(phi)


def rope_overwrites_a(x, position, base):
    d = len(x)
    half = d // 2
    for t in range(half):
        phi = position * base ** (-2 * t / d)
        x[t] = x[t] * math.cos(phi) - x[t + half] * math.sin(phi)
        x[t + half] = x[t] * math.sin(phi) + x[t + half] * math.cos(phi)
    return x


def rope_first_slots_only(x, position, base):
    d = len(x)
    out = list(x)
    for t in range(d // 2):
        phi = position * base ** (-2 * t / d)
        out[t] = x[t] * math.cos(phi) - x[t + d // 2] * math.sin(phi)
    return out


def rope_caret(x, position, base):
    return rope_with(angle=lambda p, t, d, b: p * b ^ (-2 * t / d))(x, position, base)


def test_rope_accepts_other_right_answers():
    assert_passes("rope", [rope_loop, rope_numpy, rotary_embedding,
                           rope_with(angle=lambda p, t, d, b: p * math.pow(b, -2 * t / d)),
                           rope_with(angle=lambda p, t, d, b: p / b ** (2 * t / d))])


def test_rope_slips():
    assert_named("rope", {
        "neighbouring pairs": [rope_with(pairs="next")],
        "the new slots swapped": [lambda x, p, b: rope_loop(x, p, b, new_slots_swapped=True)],
        "stopped after the first pair": [lambda x, p, b: rope_loop(x, p, b,
                                                                   return_in_the_loop=True)],
        "turned the wrong way": [rope_with(sign=-1.0), rope_rotate_half_backwards],
        "exponent without the minus": [rope_with(angle=lambda p, t, d, b: p * b ** (2 * t / d)),
                                       rope_with(angle=lambda p, t, d, b: p / b ** (-2 * t / d))],
        "exponent t/d": [rope_with(angle=lambda p, t, d, b: p * b ** (-t / d))],
        "exponent 4t/d": [rope_with(angle=lambda p, t, d, b: p * b ** (-2 * t / (d // 2)))],
        "// in the exponent": [rope_with(angle=lambda p, t, d, b: p * b ** (-2 * t // d))],
        "the exponent without brackets": [rope_with(angle=lambda p, t, d, b: p * b ** -2 * t / d)],
        "position left out": [rope_with(angle=lambda p, t, d, b: b ** (-2 * t / d))],
        "positions counted from 1": [rope_with(angle=lambda p, t, d, b: (p + 1) * b ** (
            -2 * t / d))],
        "degrees and radians": [rope_with(angle=lambda p, t, d, b: math.radians(
            p * b ** (-2 * t / d)))],
        "only the first slot of each pair": [rope_first_slots_only],
        "updated a before b": [rope_overwrites_a],
        "a float for a whole number": [rope_float_index, rope_float_half],
        "the sign of b cos φ": [rope_minus_b_cos],
        "position and t swapped": [rope_with(angle=lambda p, t, d, b: t * b ** (-2 * p / d))],
        "^ for a power": [rope_caret],
        "the wrong shape": [lambda x, p, b: (rope_loop(x, p, b)[:len(x) // 2],
                                             rope_loop(x, p, b)[len(x) // 2:])],
    })


# --- merged chunks by hand: split-KV's merge, o = Σ_c e^(LSE_c − LSE) o_c -------------------


def test_merged_chunks_by_hand_slips():
    assert_named("merged chunks by hand", {
        "the plain mean": [4.5], "not divided by the total": [20, "20"],
        "the weights swapped": [5], "divided by the number of chunks": [10],
        "one chunk only": [2, 7], "one term only": [1.2, 2.8],
        "the logsumexps as weights": [3.93], "added the outputs": [9],
    })


def test_merged_chunks_by_hand_is_the_merge_of_split_kv():
    # the by-hand answer is what serving.merge_splits computes from the same two chunks
    from course_lib.serving import merge_splits

    ex = exercise("merged chunks by hand")
    g = ex.givens
    outputs = [np.array([[float(g["o1"])]]), np.array([[float(g["o2"])]])]  # (n, d_v) = (1, 1)
    lse = [np.log([float(g["a"])]), np.log([float(g["b"])])]  # (n,)
    merged, _ = merge_splits(outputs, lse)
    assert np.isclose(float(merged[0, 0]), float(ex.answer))
    assert evaluate("merged chunks by hand", float(ex.answer)).passed
    for seed in range(1, 6):
        variant = ex.variant(seed)
        assert variant.evaluate(variant.answer.tolist()).passed
