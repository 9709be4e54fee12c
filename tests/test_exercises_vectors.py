"""Notebook 01's checkers (exercises.vectors, exercises.slots): embed, slot and q₃ by hand
name every typical slip, accept the right answers and never crash."""

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.core import CHANGED_INPUT
from course_lib.exercises.slots import SLOT_HAND, evaluate_slot
from course_lib.exercises.vectors import evaluate_embed


def embed_ok(sentence, table):
    vectors = []
    for word in sentence:
        vectors.append(table[word])
    return vectors


def slot_ok(q, i):
    if i < 1 or i > len(q):
        raise IndexError(f"q has slots 1 to {len(q)}; there is no slot {i}")
    return q[i - 1]


def embed_return_in_loop(sentence, table):
    vectors = []
    for word in sentence:
        vectors.append(table[word])
        return vectors


def embed_replaces_list(sentence, table):
    vectors = []
    for word in sentence:
        vectors = table[word]
    return vectors


def embed_pops(sentence, table):
    vectors = []
    while sentence:
        vectors.insert(0, table[sentence.pop()])
    return vectors


def slot_loop_from_zero(q, i):
    for position in range(len(q)):
        if position == i:
            return q[position]
    raise IndexError("no such slot")


def slot_value_error(q, i):
    if i < 1 or i > len(q):
        raise ValueError("no such slot")
    return q[i - 1]


def slot_pops(q, i):
    if i < 1 or i > len(q):
        raise IndexError("no such slot")
    return q.pop(i - 1)


def slot_check_one_short(q, i):
    if i < 1 or i >= len(q):
        raise IndexError("no such slot")
    return q[i - 1]


EMBED_SLIPS = {
    "table order": [lambda s, t: [v for w, v in t.items() if w in s],
                    lambda s, t: [t[w] for w in t if w in s]],
    "dropped repeats": [lambda s, t: [t[w] for w in dict.fromkeys(s)],
                        lambda s, t: [t[w] for w in set(s)]],
    "round brackets": [lambda s, t: [t(w) for w in s]],
    "split a list": [lambda s, t: [t[w] for w in s.split()]],
    "first slot only": [lambda s, t: [t[w][0] for w in s], lambda s, t: [t[w][:1] for w in s]],
    "quoted the variable": [lambda s, t: [t["word"] for word in s]],
    "returned the whole table": [lambda s, t: list(t.values()), lambda s, t: [t.values()]],
    "reversed": [lambda s, t: [t[w] for w in reversed(s)]],
    "one list too many": [lambda s, t: [[t[w]] for w in s]],
    "= instead of append": [embed_replaces_list],
    "returned pairs": [lambda s, t: [(w, t[w]) for w in s]],
    "one vector": [lambda s, t: [t[w] for w in s][0]],
    "other order": [lambda s, t: [t[s[i - 1]] for i in range(len(s))],
                    lambda s, t: [t[w] for w in sorted(s)]],
    "flattened": [lambda s, t: [x for w in s for x in t[w]],
                  lambda s, t: sum((t[w] for w in s), [])],
    "return inside the loop": [embed_return_in_loop],
    "whole sentence as a key": [lambda s, t: t[s], lambda s, t: [t[s]]],
    "returned the words": [lambda s, t: list(s), lambda s, t: [w for w in s if w in t]],
    "returned a dict": [lambda s, t: {w: t[w] for w in s}],
    "left out the first word": [lambda s, t: [t[s[i]] for i in range(1, len(s))]],
    "left out the last word": [lambda s, t: [t[s[i]] for i in range(len(s) - 1)]],
    "one number per word": [lambda s, t: [sum(t[w]) for w in s],
                            lambda s, t: [t[w][-1] for w in s]],
    "returned text": [lambda s, t: str([t[w] for w in s]), lambda s, t: f"{[t[w] for w in s]}"],
    "vectors as columns": [lambda s, t: np.array([t[w] for w in s]).T.tolist()],
    "= instead of append, in a list": [lambda s, t: [t[s[-1]]]],
    "looked up a missing key": [lambda s, t: [t.get("word") for word in s]],
    "first word every time": [lambda s, t: [t[s[0]] for _ in s]],
    "changed the word": [lambda s, t: [t[w.upper()] for w in s],
                         lambda s, t: [t[w.title()] for w in s]],
    "a table per word": [lambda s, t: [t for w in s]],
    "looked up letters": [lambda s, t: [t[c] for c in " ".join(s)],
                          lambda s, t: [t[c] for w in s for c in w]],
    "used positions as keys": [lambda s, t: [t[i] for i in range(len(s))]],
    "loop runs one past the end": [lambda s, t: [t[s[i]] for i in range(1, len(s) + 1)]],
    CHANGED_INPUT: [embed_pops],
}

SLOT_SLIPS = {
    "counted from 0": [lambda q, i: q[i], slot_loop_from_zero],
    "counted from the end": [lambda q, i: q[-i], lambda q, i: list(reversed(q))[i - 1]],
    "returned the slot number": [lambda q, i: i, lambda q, i: q.index(q[i - 1]) + 1],
    "slot 0 wraps round": [lambda q, i: q[i - 1], lambda q, i: float(q[i - 1])],
    "returned a list": [lambda q, i: q[i - 1:i], lambda q, i: [q[i - 1]]],
    "round brackets": [lambda q, i: q(i - 1)],
    "wrong error type": [slot_value_error],
    "searched for the value": [lambda q, i: q.index(i)],
    "returned the position": [lambda q, i: i - 1],
    "shifted slots": [lambda q, i: q[i - 2], lambda q, i: q[i + 1],
                      lambda q, i: np.array(q)[i + 1]],
    "slot 0 not refused": [lambda q, i: q[i - 1] if i > 0 else None,
                           lambda q, i: q[i - 1] if i >= 1 else 0],
    "returned text": [lambda q, i: str(q[i - 1]), lambda q, i: f"{q[i - 1]}"],
    "rounded the number": [lambda q, i: int(q[i - 1]), lambda q, i: round(q[i - 1])],
    "refused the last slot": [slot_check_one_short],
    CHANGED_INPUT: [slot_pops, lambda q, i: q.pop(i - 1)],
    "always the last slot": [lambda q, i: q[-1]],
    "always the first slot": [lambda q, i: q[0]],
}

HAND_SLIPS = {"counted from 0": [2, "2", 2.0], "counted from the end": [8.0, "8"],
              "gave the slot number": [3, "3"], "gave the number of slots": [7],
              "one slot early": [-1], "first slot": [4],
              "sign turned round": [-6.0], "decimal point moved": [60, 0.6]}


@pytest.mark.parametrize(("evaluate", "func"), [
    (evaluate_embed, embed_ok), (evaluate_embed, lambda s, t: np.array([t[w] for w in s])),
    (evaluate_slot, slot_ok)])
def test_a_right_answer_passes(evaluate, func):
    feedback = evaluate(func)
    assert feedback.passed, str(feedback)


def test_embed_slips_are_named():
    assert_slips_named(evaluate_embed, EMBED_SLIPS)


def test_slot_slips_are_named():
    assert_slips_named(evaluate_slot, SLOT_SLIPS)


def test_slot_by_hand():
    assert SLOT_HAND.evaluate(6).passed and SLOT_HAND.evaluate("6.0").passed
    assert_slips_named(SLOT_HAND.evaluate, HAND_SLIPS)


def test_hints_say_what_happened_on_which_input():
    feedback = evaluate_slot(lambda q, i: q[i])
    assert "slot([4, -1, 6, 2, 8, 5, 3], 1) gave -1" in feedback.message
    assert "expected 4" in feedback.message
    feedback = evaluate_slot(lambda q, i: q[i - 1])
    assert "slot([4, -1, 6, 2, 8, 5, 3], 0) returned 3" in feedback.message
    feedback = evaluate_embed(embed_return_in_loop)
    assert "embed(['the', 'cat'], table)" in feedback.message


def test_the_embedding_table_is_named_not_printed():
    feedback = evaluate_embed(lambda s, t: [[2 * x for x in t[w]] for w in s])
    assert feedback.status == "failed"
    assert "table)" in str(feedback) and "{" not in str(feedback)


@pytest.mark.parametrize("evaluate", [evaluate_embed, evaluate_slot])
def test_never_crashes(evaluate):
    assert_never_crashes(evaluate)


def test_by_hand_never_crashes():
    assert_never_crashes(SLOT_HAND.evaluate, kind="number")
