"""Notebook 08's exercises (course_lib/exercises/variance.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib import softmax
from course_lib.exercises import evaluate, exercise


def _draw(d_k, size, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((size, d_k)), rng.standard_normal((size, d_k))


def _scores(d_k, size, seed):
    q, k = _draw(d_k, size, seed)
    return (q * k).sum(axis=1)


def _products(d_k, size, seed):
    q, k = _draw(d_k, size, seed)
    return q * k  # (size, d_k)


def dot_variance_loops(d_k, size, seed):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((size, d_k))
    k = rng.standard_normal((size, d_k))
    scores = [sum(q[i, j] * k[i, j] for j in range(d_k)) for i in range(size)]
    mean = sum(scores) / len(scores)
    return sum((s - mean) ** 2 for s in scores) / len(scores)


def dot_variance_n_minus_1(d_k, size, seed):
    scores = _scores(d_k, size, seed)
    return sum((s - scores.mean()) ** 2 for s in scores) / (len(scores) - 1)


def dot_variance_python_sum(d_k, size, seed):
    q, k = _draw(d_k, size, seed)
    return np.var(sum(q * k))  # Python's sum adds the rows: one total per slot


def dot_variance_all_pairs(d_k, size, seed):
    q, k = _draw(d_k, size, seed)
    return np.var(q @ k.T)  # (size, size): every query with every key


def dot_variance_two_generators(d_k, size, seed):
    q = np.random.default_rng(seed).standard_normal((size, d_k))
    k = np.random.default_rng(seed).standard_normal((size, d_k))
    return np.var((q * k).sum(axis=1))


def dot_variance_pair_by_pair(d_k, size, seed):
    rng = np.random.default_rng(seed)
    return np.var([rng.standard_normal(d_k) @ rng.standard_normal(d_k) for _ in range(size)])


def dot_variance_global_seed(d_k, size, seed):
    np.random.seed(seed)  # noqa: NPY002 (the slip: the old global generator)
    q, k = np.random.randn(size, d_k), np.random.randn(size, d_k)  # noqa: NPY002
    return np.var((q * k).sum(axis=1))


def dot_variance_seed_zero(d_k, size, seed):
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((size, d_k)), rng.standard_normal((size, d_k))
    return np.var((q * k).sum(axis=1))


def dot_variance_key_one(d_k, size, seed):
    q, k = _draw(d_k, size, seed)
    return np.var([q[i] @ k[0] for i in range(size)])


def test_dot_variance_slips():
    assert_named("dot_variance", {
        "the mean, not the variance": [lambda d_k, size, seed: _scores(d_k, size, seed).mean()],
        "square-rooted": [
            lambda d_k, size, seed: np.std(_scores(d_k, size, seed)),
            lambda d_k, size, seed: math.sqrt(np.var(_scores(d_k, size, seed)))],
        "divided by N − 1": [dot_variance_n_minus_1,
                             lambda d_k, size, seed: np.var(_scores(d_k, size, seed), ddof=1)],
        "forgot the mean": [lambda d_k, size, seed: np.mean(_scores(d_k, size, seed) ** 2)],
        "scaled the scores": [
            lambda d_k, size, seed: np.var(_scores(d_k, size, seed) / math.sqrt(d_k))],
        "d_k² times too small": [lambda d_k, size, seed: np.var(_scores(d_k, size, seed) / d_k)],
        "products not added": [lambda d_k, size, seed: np.var(_products(d_k, size, seed))],
        "added down the columns": [dot_variance_python_sum],
        "every query with every key": [dot_variance_all_pairs],
        "every query with key 1": [dot_variance_key_one],
        "sizes that do not fit a product": [
            lambda d_k, size, seed: np.var(np.dot(*_draw(d_k, size, seed)))],
        "a variance of 0": [lambda d_k, size, seed: np.var(_products(d_k, size, seed).sum())],
        "the same draws for q and k": [dot_variance_two_generators],
        "other draws": [dot_variance_seed_zero, dot_variance_pair_by_pair,
                        dot_variance_global_seed],
        "the wrong shape": [_scores],
        "the input given back": [lambda d_k, size, seed: d_k],
        "size times too big": [lambda d_k, size, seed: np.var(_scores(d_k, size, seed)) * size],
        "rounded to 2 decimals": [
            lambda d_k, size, seed: round(float(np.var(_scores(d_k, size, seed))), 2)],
    })


def test_dot_variance_accepts_other_right_answers():
    assert_passes("dot_variance", [dot_variance_loops,
                                   lambda d_k, size, seed: np.std(_scores(d_k, size, seed)) ** 2])


def test_other_draws_is_said_only_of_a_fair_simulation():
    """A simulation on other draws lands within the sampling error of d_k on the big cases;
    an answer about 1 (the scaled scores' variance, on other draws) is not taken for it."""
    def scaled_other_draws(d_k, size, seed):
        return dot_variance_pair_by_pair(d_k, size, seed) / d_k

    assert evaluate("dot_variance", dot_variance_pair_by_pair).mistake == "other draws"
    assert evaluate("dot_variance", scaled_other_draws).mistake != "other draws"


def test_the_checker_replays_the_case_draws():
    ex = exercise("dot_variance")
    for case in ex.cases:
        assert case.expected == np.var(_scores(*case.args))
    big = [c for c in ex.cases if c.args[1] >= 1000]
    assert big and all(abs(c.expected - c.args[0]) < 0.2 * c.args[0] for c in big)


def test_variance_by_hand_slips():
    assert_named("variance by hand", {
        "forgot the mean": [12.5], "divided by N − 1": [4.67, "14/3"],
        "square-rooted": [1.87], "forgot to square": [1.5], "signed distances": [0],
        "doubled instead of squared": [2.75, "11/4"],  # 3² taken as 6
        "forgot to divide": [14], "gave the mean": [3], "the median as the mean": [3.75, "15/4"],
        "^ for a square": [-1],
        "mean over N − 1": [4.5], "forgot to square the mean": [9.5],
        "squared": [12.25], "decimal point moved": [35], "close but off": [3.55],
    })


def test_variance_by_hand_accepts_the_answer():
    assert_passes("variance by hand", [3.5, "3.5", "7/2", 3.505])


def test_the_median_as_the_mean_is_named_on_the_notebooks_darts():
    """3.75 takes the median 2.5 as the centre; 3.74 is near √14 but no slip claims it."""
    assert evaluate("variance by hand", 3.75).mistake == "the median as the mean"
    assert evaluate("variance by hand", 3.74).mistake is None


def test_over_shrunk_by_hand_slips():
    assert_named("over-shrunk by hand", {
        "divided by c, not c²": [1, "1"], "square-rooted": [0.25], "no scaling": [16],
        "gave c²": [256], "divided by √d_k": [4], "0 for a small variance": [0],
        "doubled instead of squared": [0.5, 2], "started from variance 1": [0.0039, "1/256"],
        "multiplied by √d_k": [64],
        "decimal point moved": [0.625], "rounded too early": [0.06],
        "close but off": ["16/265"],
    })
    assert "`/ c * c`" in str(evaluate("over-shrunk by hand", 16 / 16 * 16))  # precedence


def test_over_shrunk_by_hand_accepts_the_answer():
    assert_passes("over-shrunk by hand", [0.0625, "1/16", 0.0626])


def scale_in_place(query, key):
    query /= math.sqrt(query.shape[-1])  # writes into the caller's array
    return query @ key.T


def scale_no_d_k(query, key):
    return query @ key.T / math.sqrt(d_k)  # noqa: F821 (the slip: d_k never set)


def scale_loops(query, key):
    d_k = len(query[0])
    return [[sum(q[c] * k[c] for c in range(d_k)) / math.sqrt(d_k) for k in key] for q in query]


def test_scale_scores_slips():
    assert_named("scale_scores", {
        "√d_k times too big": [lambda query, key: query @ key.T, lambda q, k: np.dot(q, k.T)],
        "divided by d_k, not √d_k": [lambda query, key: query @ key.T / query.shape[1],
                                     lambda q, k: np.dot(q, k.T) / len(q[0])],
        "d_k times too big": [lambda query, key: query @ key.T * math.sqrt(query.shape[1])],
        "scaled by the number of keys": [lambda query, key: query @ key.T / math.sqrt(len(key))],
        "scaled by the number of queries": [
            lambda query, key: query @ key.T / np.sqrt(query.shape[0])],
        "** 1/2 without brackets": [lambda query, key: query @ key.T / query.shape[1] ** 1/2],
        "(d_k ** 1/2) is d_k/2": [lambda query, key: query @ key.T / (query.shape[1] ** 1/2)],
        "^ for a power": [lambda query, key: query @ key.T / (query.shape[1] ^ 0.5),
                          lambda query, key: query @ key.T / ((query.shape[1] ^ 1) / 2)],
        "rounded down": [lambda query, key: query @ key.T // math.sqrt(query.shape[-1])],
        "sizes that do not fit a product": [
            lambda query, key: query @ key / math.sqrt(query.shape[1])],
        "Q * K.T elementwise": [lambda query, key: query * key.T / math.sqrt(query.shape[-1])],
        "transposed": [lambda query, key: key @ query.T / math.sqrt(query.shape[-1])],
        "Qᵀ K": [lambda query, key: query.T @ key / math.sqrt(query.shape[-1])],
        "applied the softmax": [
            lambda query, key: softmax(query @ key.T / math.sqrt(query.shape[1]), axis=-1)],
        "rounded to 2 decimals": [
            lambda query, key: np.round(query @ key.T / math.sqrt(query.shape[1]), 2)],
        "d_k as query.size": [lambda query, key: query @ key.T / math.sqrt(query.size),
                              lambda q, k: q @ k.T / np.sqrt(np.size(q))],
        "a name never defined": [scale_no_d_k],
        "the root taken twice": [lambda query, key: query @ key.T / math.sqrt(
            math.sqrt(query.shape[-1])), lambda query, key: query @ key.T / query.shape[1] ** 0.25],
        "√(d_k + 1)": [lambda query, key: query @ key.T / math.sqrt(query.shape[-1] + 1)],
        "changed its input": [scale_in_place],
    })


def test_scale_scores_accepts_other_right_answers():
    assert_passes("scale_scores", [
        scale_loops, lambda query, key: np.matmul(query, key.transpose()) * query.shape[1] ** -0.5])
