"""Notebook 16's exercises: generate with a KV cache, rope for one row, and the cache's memory
per token by hand. Each slip of the catalogues is made on purpose, the way a beginner writes
it."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

import course_lib as cl
from course_lib.decoding import decode
from course_lib.exercises.cache_memory import CACHE_MEMORY
from course_lib.exercises.core import CHANGED_INPUT
from course_lib.exercises.kv_cache import check_generate, evaluate_generate
from course_lib.exercises.rope import check_rope, evaluate_rope
from course_lib.rotary import rotary_embedding

# --- generate with a KV cache --------------------------------------------------------------


def generate_ok(query, key, value):
    keys, values, outputs = [], [], []
    for t in range(len(query)):
        keys.append(key[t])
        values.append(value[t])
        out = cl.scaled_dot_product_attention(query[t:t + 1], np.array(keys), np.array(values))
        outputs.append(out[0])
    return np.array(outputs)


def generate_by_hand(query, key, value):
    outputs = []
    for t in range(len(query)):
        scores = key[:t + 1] @ query[t] / math.sqrt(len(query[t]))
        w = np.exp(scores - scores.max())
        outputs.append(list(w / w.sum() @ value[:t + 1]))
    return outputs


def _loop(query, key, value, keys_of, values_of=None, scale=None, causal=False, wrap=False):
    values_of = values_of or keys_of
    outputs = []
    for t in range(len(query)):
        keys, values = np.array(keys_of(t)), np.array(values_of(t))
        out = cl.scaled_dot_product_attention(query[t:t + 1], keys, values, scale=scale,
                                              is_causal=causal)
        outputs.append(out if wrap else out[0])
    return np.array(outputs)


def whole_sequence(query, key, value):
    return _loop(query, key, value, lambda t: key, lambda t: value)


def whole_sequence_at_once(query, key, value):
    return cl.scaled_dot_product_attention(query, key, value)


def newest_only(query, key, value):
    return _loop(query, key, value, lambda t: key[t:t + 1], lambda t: value[t:t + 1])


def cache_reset_in_loop(query, key, value):
    outputs = []
    for t in range(len(query)):
        keys, values = [], []  # reset at every step
        keys.append(key[t])
        values.append(value[t])
        outputs.append(cl.scaled_dot_product_attention(query[t:t + 1], np.array(keys),
                                                        np.array(values))[0])
    return np.array(outputs)


def top_left(query, key, value):
    return _loop(query, key, value, lambda t: key[:t + 1], lambda t: value[:t + 1],
                 causal=True)


def top_left_whole(query, key, value):
    return _loop(query, key, value, lambda t: key, lambda t: value, causal=True)


def before_appending(query, key, value):
    keys, values, outputs = [], [], []
    for t in range(len(query)):
        keys_so_far = np.array(keys).reshape(-1, key.shape[1])  # step 0: no row at all
        values_so_far = np.array(values).reshape(-1, value.shape[1])
        out = cl.scaled_dot_product_attention(query[t:t + 1], keys_so_far, values_so_far)
        keys.append(key[t])
        values.append(value[t])
        outputs.append(out[0])
    return np.array(outputs)


def before_appending_guarded(query, key, value):
    keys, values, outputs = [], [], []
    for t in range(len(query)):
        if keys:
            outputs.append(cl.scaled_dot_product_attention(query[t:t + 1], np.array(keys),
                                                           np.array(values))[0])
        else:
            outputs.append(np.zeros(value.shape[1]))
        keys.append(key[t])
        values.append(value[t])
    return np.array(outputs)


def queries_cached(query, key, value):
    return _loop(query, key, value, lambda t: query[:t + 1], lambda t: value[:t + 1])


def keys_as_values(query, key, value):
    return _loop(query, key, value, lambda t: key[:t + 1], lambda t: key[:t + 1])


def not_scaled(query, key, value):
    return _loop(query, key, value, lambda t: key[:t + 1], lambda t: value[:t + 1], scale=1.0)


def not_scaled_by_hand(query, key, value):
    outputs = []
    for t in range(len(query)):
        scores = key[:t + 1] @ query[t]
        w = np.exp(scores - scores.max())
        outputs.append(w / w.sum() @ value[:t + 1])
    return np.array(outputs)


def scaled_by_d_v(query, key, value):
    return _loop(query, key, value, lambda t: key[:t + 1], lambda t: value[:t + 1],
                 scale=1 / math.sqrt(value.shape[1]))


def returns_in_loop(query, key, value):
    keys, values, outputs = [], [], []
    for t in range(len(query)):
        keys.append(key[t])
        values.append(value[t])
        outputs.append(cl.scaled_dot_product_attention(query[t:t + 1], np.array(keys),
                                                       np.array(values))[0])
        return np.array(outputs)


def last_only(query, key, value):
    keys, values = [], []
    for t in range(len(query)):
        keys.append(key[t])
        values.append(value[t])
        out = cl.scaled_dot_product_attention(query[t:t + 1], np.array(keys), np.array(values))
    return out


def last_row_only(query, key, value):
    return last_only(query, key, value)[0]


def one_row_grids(query, key, value):
    return _loop(query, key, value, lambda t: key[:t + 1], lambda t: value[:t + 1], wrap=True)


def cache_in_place(query, key, value):
    key[:] = key  # a read-only case array refuses the write
    return generate_ok(query, key, value)


GENERATE_SLIPS = {
    "the whole sequence at every step": [whole_sequence, whole_sequence_at_once],
    "only the newest key": [newest_only, cache_reset_in_loop],
    "top-left causal on the cache": [top_left, top_left_whole],
    "attended before appending": [before_appending, before_appending_guarded],
    "queries cached as keys": [queries_cached],
    "keys cached as values": [keys_as_values],
    "not scaled": [not_scaled, not_scaled_by_hand],
    "scaled by √d_v": [scaled_by_d_v],
    "scaled by d_k": [lambda q, k, v: _loop(q, k, v, lambda t: k[:t + 1], lambda t: v[:t + 1],
                                            scale=1 / q.shape[1])],
    "softmax over the wrong axis": [lambda q, k, v: np.cumsum(v, axis=0)],
    "scaled by √n": [lambda q, k, v: _loop(q, k, v, lambda t: k[:t + 1], lambda t: v[:t + 1],
                                           scale=1 / math.sqrt(len(q)))],
    "transposed the output": [lambda q, k, v: generate_ok(q, k, v).T],
    "scaled by √(cache length)": [lambda q, k, v: np.array([cl.scaled_dot_product_attention(
        q[t:t + 1], k[:t + 1], v[:t + 1], scale=1 / math.sqrt(t + 1))[0] for t in range(len(q))])],
    "query 0 every step": [lambda q, k, v: _loop(q[:1].repeat(len(q), axis=0), k, v,
                                                 lambda t: k[:t + 1], lambda t: v[:t + 1])],
    "looked at the future": [lambda q, k, v: _loop(q, k, v, lambda t: k[t:], lambda t: v[t:])],
    "queries cached as values": [lambda q, k, v: _loop(q, k, v, lambda t: k[:t + 1],
                                                       lambda t: q[:t + 1])],
    "return inside the loop": [returns_in_loop],
    "only the last output": [last_only, last_row_only],
    "rows kept as 1-row grids": [one_row_grids],
    CHANGED_INPUT: [cache_in_place],
}


@pytest.mark.parametrize("func", [generate_ok, generate_by_hand,
                                  decode])
def test_generate_accepts_right_answers(func):
    feedback = evaluate_generate(func)
    assert feedback.passed, str(feedback)


def test_generate_names_every_slip():
    assert_slips_named(evaluate_generate, GENERATE_SLIPS)


def test_generate_never_crashes():
    assert_never_crashes(evaluate_generate)


# --- rope ----------------------------------------------------------------------------------


def rope_ok(x, position, base=10000.0):
    d = len(x)
    half = d // 2
    out = [0.0] * d
    for t in range(half):
        phi = position * base ** (-2 * t / d)
        a, b = x[t], x[t + half]
        out[t] = a * math.cos(phi) - b * math.sin(phi)
        out[t + half] = a * math.sin(phi) + b * math.cos(phi)
    return out


def rope_numpy(x, position, base=10000.0):
    x = np.asarray(x)
    d = x.shape[-1]
    phi = position * base ** (-np.arange(d // 2) * 2 / d)
    phi = np.concatenate([phi, phi])
    rotated = np.concatenate([-x[d // 2:], x[:d // 2]])
    return x * np.cos(phi) + rotated * np.sin(phi)


def rope_with(angle=None, pairs="half", sign=1, swap=False, half_only=False):
    def rope(x, position, base=10000.0):
        d = len(x)
        out = [0.0] * d
        for t in range(d // 2):
            phi = position * base ** (-2 * t / d) if angle is None else angle(t, d, position,
                                                                                base)
            i, j = (t, t + d // 2) if pairs == "half" else (2 * t, 2 * t + 1)
            c, s = math.cos(phi), sign * math.sin(phi)
            if swap:
                c, s = s, c
            out[i], out[j] = x[i] * c - x[j] * s, x[i] * s + x[j] * c
        return out[:d // 2] if half_only else out
    return rope


def rope_neighbours_numpy(x, position, base=10000.0):
    x = np.asarray(x, float)
    d = len(x)
    phi = position * base ** (-np.arange(0, d, 2) / d)
    even, odd = x[0::2], x[1::2]
    out = np.empty(d)
    out[0::2] = even * np.cos(phi) - odd * np.sin(phi)
    out[1::2] = even * np.sin(phi) + odd * np.cos(phi)
    return out


def rope_no_minus(x, position, base=10000.0):
    x = np.asarray(x)
    d = x.shape[-1]
    phi = np.tile(position * base ** (-np.arange(d // 2) * 2 / d), 2)
    return x * np.cos(phi) + np.concatenate([x[d // 2:], x[:d // 2]]) * np.sin(phi)


def rope_in_place(x, position, base=10000.0):
    x[0] = x[0]  # writes into the caller's row
    return rope_ok(x, position, base)


def rope_overwrites_a(x, position, base=10000.0):
    x, d = np.array(x, dtype=float), len(x)
    for t in range(d // 2):
        phi = position * base ** (-2 * t / d)
        x[t] = x[t] * math.cos(phi) - x[t + d // 2] * math.sin(phi)
        x[t + d // 2] = x[t] * math.sin(phi) + x[t + d // 2] * math.cos(phi)
    return x


def _halves_turned(x, phi):
    d = len(x)
    return x * np.cos(phi) + np.concatenate([-x[d // 2:], x[:d // 2]]) * np.sin(phi)


def rope_slotwise(x, position, base=10000.0):
    x = np.asarray(x, dtype=float)
    return _halves_turned(x, position * base ** (-2 * np.arange(len(x)) / len(x)))


def rope_untiled(x, position, base=10000.0):
    x = np.asarray(x, dtype=float)
    return _halves_turned(x, position * base ** (-2 * np.arange(len(x) // 2) / len(x)))


ROPE_SLIPS = {
    "neighbouring pairs": [rope_with(pairs="next"), rope_neighbours_numpy],
    "turned the wrong way": [rope_with(sign=-1)],
    "one angle for every pair": [rope_with(angle=lambda t, d, p, b: p)],
    "exponent t/d": [rope_with(angle=lambda t, d, p, b: p * b ** (-t / d))],
    "exponent without the minus": [rope_with(angle=lambda t, d, p, b: p * b ** (2 * t / d)),
                                   rope_with(angle=lambda t, d, p, b: p / b ** (-2 * t / d))],
    "position left out": [rope_with(angle=lambda t, d, p, b: b ** (-2 * t / d))],
    "positions counted from 1": [rope_with(angle=lambda t, d, p, b: (p + 1) * b ** (-2 * t / d))],
    "cos and sin swapped": [rope_with(swap=True)],
    "rotate_half without the minus": [rope_no_minus],
    "only the first half": [rope_with(half_only=True)],
    "updated a before b": [rope_overwrites_a],
    "angles in degrees": [rope_with(angle=lambda t, d, p, b: math.radians(p * b ** (-2 * t / d)))],
    "pairs counted from 1": [rope_with(angle=lambda t, d, p, b: p * b ** (-2 * (t + 1) / d))],
    "each slot its own angle": [rope_slotwise],
    "angles not repeated": [rope_untiled],
    "turned only pair 0": [rope_with(angle=lambda t, d, p, b: p if t == 0 else 0.0)],
    "exponent 4t/d": [rope_with(angle=lambda t, d, p, b: p * b ** (-2 * t / (d // 2)))],
    CHANGED_INPUT: [rope_in_place],
}


@pytest.mark.parametrize("func", [rope_ok, rope_numpy,
                                  rotary_embedding])
def test_rope_accepts_right_answers(func):
    feedback = evaluate_rope(func)
    assert feedback.passed, str(feedback)


def test_rope_names_every_slip():
    assert_slips_named(evaluate_rope, ROPE_SLIPS)


def test_rope_never_crashes():
    assert_never_crashes(evaluate_rope)


# --- the cache's memory per token, by hand -------------------------------------------------

MEMORY_SLIPS = {
    "keys only": [128, "128"],
    "bytes per number left out": [64],
    "all query heads": [1024],
    "one layer only": [8],
    "bits instead of bytes": [2048],
    "KiB as 1000 bytes": [262.144, 262],
    "bytes, not KiB": [262144],
    "MiB, not KiB": [0.25],
    "query and key/value heads": [1280],
    "float64's 8 bytes": [512], "one key/value head": [32], "numbers, not KiB": [65536],
    "sign turned round": [-256],
    "decimal point moved": [25.6, 2560],
}


def test_cache_memory_by_hand():
    for right in (256, "256", 256.0, 255.8):
        assert CACHE_MEMORY.evaluate(right).passed
    assert_slips_named(CACHE_MEMORY.evaluate, MEMORY_SLIPS)
    assert_never_crashes(CACHE_MEMORY.evaluate, kind="number")


@pytest.mark.parametrize("check", [check_generate, check_rope])
def test_check_prints_one_paragraph(check, capsys):
    def stub(*args):
        raise NotImplementedError

    assert check(stub) is None
    out = capsys.readouterr().out
    assert out.startswith("Not attempted yet") and out.count("\n") == 1
