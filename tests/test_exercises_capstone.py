"""Notebook 10's capstone (course_lib/exercises/capstone.py): each broken function, handed in
as it is, is "not attempted yet" without its bug named; the right fix passes; a fix that is
still wrong is named by its own slip."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate
from course_lib.exercises.capstone import BUG_HUNTS


def stable(scores, axis=-1):
    e = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def scaled(query, key):
    return query @ key.T / math.sqrt(query.shape[-1])


def fixed(query, key, value):
    return stable(scaled(query, key)) @ value


def test_each_function_as_handed_out_is_not_attempted_and_its_bug_unnamed():
    assert BUG_HUNTS
    for hunt in BUG_HUNTS:
        feedback = hunt.evaluate(hunt.broken)
        assert feedback.status == "not attempted", feedback.message
        assert feedback.message.startswith("Not attempted yet")
        other = [s.name for s in hunt.slips if s.name != "the bug still there"]
        assert not any(name in feedback.message for name in other), feedback.message


def test_the_right_fix_passes_in_any_style():
    for hunt in BUG_HUNTS:
        assert_passes(hunt.name, [fixed, lambda q, k, v: stable(q @ k.T / k.shape[1] ** 0.5)
                                  @ v])


def columns_then_rows(query, key, value):  # bug 1, "fixed" by moving the max as well
    s = scaled(query, key)
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True) @ value


def transposed_weights(query, key, value):  # bug 1, "fixed" by transposing the weights
    s = scaled(query, key)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=0, keepdims=True)).T @ value


def flat_total(query, key, value):  # bug 1, axis=1 without keepdims
    s = scaled(query, key)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=1) @ value


def scale_changed_sum_left(query, key, value):  # bug 1 left, the right scale line "fixed"
    d_k = query.shape[-1]
    scores = query @ key.T / d_k
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=0, keepdims=True)
    return weights @ value


def return_rewritten(query, key, value):  # an edit that changes nothing
    d_k = query.shape[-1]
    scores = query @ key.T / math.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=0, keepdims=True)
    output = weights @ value
    return output


def test_an_edit_that_changes_nothing_is_told_the_bug_is_still_there():
    feedback = evaluate("bug hunt 1", return_rewritten)
    assert feedback.status == "mistake"
    assert "The bug is still there" in feedback.message


def test_bug_hunt_1_wrong_fixes():
    assert_named("bug hunt 1", {
        "softmax down the columns": [columns_then_rows],
        "transposed instead of fixed": [transposed_weights],
        "the bug left, a right line changed": [scale_changed_sum_left],
        "shapes that do not line up": [flat_total],
        "normalised over the whole grid": [
            lambda q, k, v: np.exp(scaled(q, k) - scaled(q, k).max(axis=-1, keepdims=True))
            / np.exp(scaled(q, k) - scaled(q, k).max(axis=-1, keepdims=True)).sum() @ v],
        "softmax overflows": [lambda q, k, v: np.exp(scaled(q, k)) / np.exp(scaled(q, k)).sum(
            axis=-1, keepdims=True) @ v],
    })


def test_bug_hunt_2_wrong_fixes():
    assert_named("bug hunt 2", {
        "√m for √d_k": [lambda q, k, v: stable(q @ k.T / math.sqrt(key_count(k))) @ v],
        "√n for √d_k": [lambda q, k, v: stable(q @ k.T / math.sqrt(len(q))) @ v],
        "multiplied by √d_k": [lambda q, k, v: stable(q @ k.T * math.sqrt(q.shape[-1])) @ v],
        "no scaling": [lambda q, k, v: stable(q @ k.T) @ v],
        "d_k / 2 or 2·d_k for √d_k": [lambda q, k, v: stable(q @ k.T / q.shape[-1] ** 1/2) @ v],
        "divided by d_k²": [lambda q, k, v: stable(q @ k.T / q.shape[-1] ** 2) @ v],
        "÷ d_k and ÷ √d_k": [lambda q, k, v: stable(q @ k.T / q.shape[-1]
                                                   / math.sqrt(q.shape[-1])) @ v],
        "√d_v for √d_k": [lambda q, k, v: stable(q @ k.T / math.sqrt(v.shape[-1])) @ v],
        "^ for a power": [lambda q, k, v: stable(q @ k.T / (q.shape[-1] ^ 2)) @ v],
        "divided by 2": [lambda q, k, v: stable(q @ k.T / 2) @ v],
        "√(n·d_k) for √d_k": [lambda q, k, v: stable(q @ k.T / np.sqrt(q.size)) @ v],
    })


def key_count(key):
    return key.shape[0]


def test_bug_hunt_3_wrong_fixes():
    assert_named("bug hunt 3", {
        "value transposed": [lambda q, k, v: stable(scaled(q, k)) @ v.T],
        "two inputs exchanged": [lambda q, k, v: stable(scaled(q, v)) @ k],
        "value @ weights": [lambda q, k, v: v @ stable(scaled(q, k))],
        "transposed the weights": [lambda q, k, v: stable(scaled(q, k)).T @ v],
        "blended the queries": [lambda q, k, v: stable(scaled(q, k)) @ q],
        "no softmax": [lambda q, k, v: scaled(q, k) @ v],
        "returned the weights": [lambda q, k, v: stable(scaled(q, k))],
        "* for @ in the blend": [lambda q, k, v: stable(scaled(q, k)) * v],
        "the keys still in the blend": [lambda q, k, v: stable(scaled(q, k)) @ k @ v,
                                        lambda q, k, v: stable(scaled(q, k)) @ k.T],
        "equal weights": [lambda q, k, v: stable(scaled(q, k)).mean(axis=-1, keepdims=True)
                          * v.sum(axis=0)],
    })


def test_a_fix_without_return_is_named():
    assert evaluate("bug hunt 2", lambda q, k, v: None).mistake == "no return"


def test_notebook_10_hands_out_these_very_functions():
    """The broken functions are written in notebook 10's cells and in the table module: the
    same lines, so 'not attempted yet' means 'as handed out'."""
    import inspect
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "notebooks" / "10_checklist.ipynb"
    cells = ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
             if "bug-hunt" in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == len(BUG_HUNTS)
    for cell, hunt in zip(cells, BUG_HUNTS, strict=True):
        source = inspect.getsource(hunt.broken).replace(f"def {hunt.broken.__name__}(",
                                                        f"def {hunt.function}(")
        assert cell.startswith(source.rstrip("\n")), hunt.name
        assert f'check("{hunt.name}", {hunt.function})' in cell
