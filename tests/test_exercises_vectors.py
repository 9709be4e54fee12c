"""Notebook 01's exercises (course_lib/exercises/vectors.py): wrong answers written the way
beginners write them, each named by its own slip or relation; right answers in other styles
accepted."""

import numpy as np
from slip_checks import assert_named, assert_passes


def slot_ok(q, i):
    if i < 1 or i > len(q):
        raise IndexError(f"q has slots 1 to {len(q)}; there is no slot {i}")
    return q[i - 1]


def slot_in_range(q, i):
    if i not in range(1, len(q) + 1):
        raise IndexError(f"slot {i} is not one of 1 … {len(q)}")
    return q[i - 1]


def slot_lets_python_raise(q, i):
    if i < 1:
        raise IndexError(f"slots run from 1 to {len(q)}")
    return q[i - 1]


def slot_past_the_end(q, i):  # slot len(q) + 1 gets past the check
    if i < 1 or i > len(q) + 1:
        raise IndexError(f"slots 1 to {len(q)}")
    return q[i - 1]


def slot_vague(q, i):
    if i < 1 or i > len(q):
        raise IndexError("bad slot")
    return q[i - 1]


def slot_checked_from_zero(q, i):
    if i < 1 or i > len(q):
        raise IndexError(f"there is no slot {i}")
    return q[i]


def slot_only_too_big(q, i):
    if i > len(q):
        raise IndexError(f"slot {i} is too big")
    return q[i - 1]


def slot_message(q, i):
    if i == 0 or i > len(q):
        return "no such slot"
    return q[i - 1]


def slot_value_error(q, i):
    if i < 1 or i > len(q):
        raise ValueError("no such slot")
    return q[i - 1]


def slot_check_one_short(q, i):
    if i < 1 or i >= len(q):
        raise IndexError(f"there is no slot {i}")
    return q[i - 1]


def slot_python_positions(q, i):
    if i not in range(len(q)):
        raise IndexError(f"slots run from 1 to {len(q)}")
    return q[i - 1]


def slot_upside_down(q, i):
    if 1 <= i <= len(q):
        raise IndexError(f"there is no slot {i}")
    return q[i - 1]


def slot_loop_from_zero(q, i):
    for position in range(len(q)):
        if position == i:
            return q[position]
    raise IndexError(f"there is no slot {i}")


def slot_pops(q, i):
    if i < 1 or i > len(q):
        raise IndexError(f"there is no slot {i}")
    return q.pop(i - 1)


def test_slot_slips():
    assert_named("slot", {
        "no shift by one": [lambda q, i: q[i], slot_checked_from_zero, slot_loop_from_zero],
        "counted from the end": [lambda q, i: q[-i], lambda q, i: list(reversed(q))[i - 1]],
        "the input given back": [lambda q, i: i],
        "used the positions, not the numbers": [lambda q, i: i - 1],
        "a slot below 1 wraps round": [lambda q, i: q[i - 1], slot_only_too_big],
        "returned instead of raising": [lambda q, i: q[i - 1] if i > 0 else None],
        "returned the message": [slot_message],
        "raised another kind of error": [slot_value_error],
        "refused a slot that exists": [slot_check_one_short],
        "tested Python positions": [slot_python_positions, lambda q, i: q[i - 1] if 0 <= i < len(q)
                                    else slot_ok(q, 0)],
        "the test before raise turned round": [slot_upside_down],
        "the wrong shape": [lambda q, i: q[i - 1:i], lambda q, i: [q[i - 1]]],
        "round brackets": [lambda q, i: q(i)],
        "cut to whole numbers": [lambda q, i: int(slot_ok(q, i))],
        "returned text": [lambda q, i: str(slot_ok(q, i))],
        "changed its input": [slot_pops],
        "no slots named in the message": [slot_vague],
        "slot len(q) + 1 let through": [slot_lets_python_raise, slot_past_the_end],
    })


def test_slot_accepts_other_right_answers():
    assert_passes("slot", [slot_ok, slot_in_range])


def test_slot_by_hand_slips():
    assert_named("slot by hand", {
        "counted from 0": [2, "2", 2.0], "counted from the end": [8.0, "8"],
        "gave the slot number": [3], "gave the number of slots": [7], "one slot early": [-1],
        "first slot": [4], "last slot": [9], "sign turned round": [-6.0],
        "another slot": [5, "5"],  # q₆ for q₃
    })


def embed_ok(sentence, table):
    vectors = []
    for word in sentence:
        vectors.append(table[word])
    return vectors


def embed_return_in_loop(sentence, table):
    vectors = []
    for word in sentence:
        vectors.append(table[word])
        return vectors


def embed_return_the_vector(sentence, table):
    for word in sentence:
        return table[word]


def embed_replaces_list(sentence, table):
    vectors = []
    for word in sentence:
        vectors = table[word]
    return vectors


def embed_glues(sentence, table):
    vectors = []
    for word in sentence:
        vectors += table[word]
    return vectors


def embed_pops(sentence, table):
    vectors = []
    while sentence:
        vectors.insert(0, table[sentence.pop()])
    return vectors


def test_embed_slips():
    assert_named("embed", {
        "only the first word": [embed_return_in_loop, embed_return_the_vector,
                                lambda s, t: t[s[0]], lambda s, t: [t[s[0]]]],
        "added the vectors": [lambda s, t: [sum(x) for x in zip(*[t[w] for w in s], strict=True)]],
        "kept the words": [lambda s, t: [(w, t[w]) for w in s],
                           lambda s, t: [[w, t[w]] for w in s]],
        "= instead of append": [embed_replaces_list],
        "+= glued the vectors": [embed_glues, lambda s, t: sum((t[w] for w in s), [])],
        "the wrong shape": [lambda s, t: [[t[w]] for w in s]],
        "table order": [lambda s, t: [t[w] for w in t if w in s]],
        "sorted the words": [lambda s, t: [t[w] for w in sorted(s)]],
        "each word once": [lambda s, t: [t[w] for w in dict.fromkeys(s)],
                            lambda s, t: [t[w] for w in set(s)]],
        "the whole table": [lambda s, t: list(t.values())],
        "quoted the variable": [lambda s, t: [t["word"] for word in s],
                                lambda s, t: [t["w"] for w in s]],
        "looked up letters": [lambda s, t: [t[c] for w in s for c in w]],
        "round brackets": [lambda s, t: [t(w) for w in s]],
        "split a list": [lambda s, t: [t[w] for w in s.split()]],
        "left out the first word": [lambda s, t: [t[s[i]] for i in range(1, len(s))]],
        "left out the last word": [lambda s, t: [t[s[i]] for i in range(len(s) - 1)]],
        "one number per word": [lambda s, t: [sum(t[w]) for w in s], lambda s, t: [t[w][0]
                                                                               for w in s]],
        "returned a dict": [lambda s, t: {w: t[w] for w in s}],
        "in reverse order": [lambda s, t: [t[w] for w in reversed(s)]],
        "transposed": [lambda s, t: np.array([t[w] for w in s]).T.tolist()],
        "returned text": [lambda s, t: str(embed_ok(s, t))],
        "changed its input": [embed_pops],
    })


def test_embed_accepts_other_right_answers():
    assert_passes("embed", [embed_ok, lambda s, t: [t[w] for w in s],
                            lambda s, t: np.array([t[w] for w in s]),
                            lambda s, t: [t.get(w) for w in s]])
