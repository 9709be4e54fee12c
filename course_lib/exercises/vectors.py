"""Notebook 01: the number in slot i by hand and in code, a sentence as its vectors."""

import numpy as np

from .engine import Case, CodeExercise
from .feedback import Slip
from .feedback import no_prediction as _no
from .hand import HandExercise
from .python import missing_key

_SUB = "₀₁₂₃₄₅₆₇₈₉"


def _no_slot():
    raise IndexError("bad slot")


def _draw_slot(rng):  # 6 to 9 slots: one length makes two slips collide for most i
    q = [int(x) for x in rng.choice(np.r_[-9:0, 1:10], size=int(rng.integers(6, 10)),
                                    replace=False)]
    return {"q": q, "i": int(rng.integers(2, 7))}


_SLOT_HAND_SLIPS = [
    ("counted from 0", "{got} is Python's q[{i}], one slot right: slot {i} is q[{i} − 1].",
     lambda q, i: q[i]),
    ("counted from the end", "{got} is number {i} from the right: count from the left.",
     lambda q, i: q[-i]),
    ("gave the slot number", "{got} is i: qᵢ is the number in slot i.", lambda q, i: i),
    ("one slot early", lambda q, i: f"{{got}} is q{_SUB[i - 1]}, one before q{_SUB[i]}.",
     lambda q, i: q[i - 2]),
    ("first slot", "{got} is q₁, the first number.", lambda q, i: q[0]),
    ("last slot", "{got} is the last number.", lambda q, i: q[-1]),
    ("gave the number of slots", "{got} is L, how many slots q has.", lambda q, i: len(q)),
]


SLOT_HAND = HandExercise(
    "slot by hand", "qᵢ for i = {i} and q = {q}",
    lambda q, i: q[i - 1], {"q": [4, -1, 6, 2, 8, 5, 9], "i": 3}, _SLOT_HAND_SLIPS,
    draw=_draw_slot, twins=[
        ("added the slots up to i", "{got} is q₁ + … + qᵢ: give slot {i}'s number alone.",
         lambda q, i: sum(q[:i])),
        ("another slot", "{got} is in another slot: count 1, 2, 3, … to slot {i}.",
         [lambda q, i, j=j: _no() if q[j] in {*q[max(i - 2, 0):i + 1], q[0], q[-1], q[-i]}
          else q[j] for j in range(9)])],
)

_Q = [4.5, -1.0, 6.25, 2.0, 8.0, 5.5, 3.0]


def _slot(q, i):
    if not 1 <= i <= len(q):
        raise IndexError(f"q has slots 1 to {len(q)}; there is no slot {i}")
    return q[i - 1]


def _checked_or_not(read):
    def checked(q, i):
        return read(q, i) if 1 <= i <= len(q) else _slot(q, i)
    return (checked, read)


_POSITIONS, _WRAPS = "tested Python positions", "a slot below 1 wraps round"
_PAST, _UNNAMED = "slot len(q) + 1 let through", "no slots named in the message"


def _answered_0(o):
    return o.case.raises is not None and o.error is None and o.case.args[1] == 0


def _refused_last(o):
    return isinstance(o.error, IndexError) and o.case.args[1] == len(o.case.args[0])


def _numbered(message):  # "slots 1 to 7", not "bad slot"
    return any(c.isdigit() for c in message)


def _wrapped(o):
    return o.case.raises is not None and o.error is None and o.case.args[1] <= 0


class _Slot(CodeExercise):
    """Names _POSITIONS only if slot 0 is answered AND slot len(q) refused, _WRAPS if i < 1 is."""

    def explanations(self, outcomes):
        both = any(map(_answered_0, outcomes)) and any(map(_refused_last, outcomes))
        wrapped, found = any(map(_wrapped, outcomes)), super().explanations(outcomes)
        past = any(e[2] == _PAST for e in found)
        return [e for e in found if (both or e[2] != _POSITIONS) and (wrapped or e[2] != _WRAPS)
                and not (past and e[2] == _UNNAMED)]


_SLOT_SLIPS = [
    ("two positions on", "q[i + 1] is slot i + 2: slot i is q[i - 1].",
     _checked_or_not(lambda q, i: q[i + 1])),
    ("no shift by one", "q[i] is slot i + 1: slot i is q[i - 1].",
     _checked_or_not(lambda q, i: q[i])),
    ("counted from the end", "q[-i] counts from the end: slot i is q[i - 1].",
     _checked_or_not(lambda q, i: q[-i])),
    Slip(_WRAPS, "q[i - 1] for i < 1 counts from the END: raise IndexError unless 1 ≤ i ≤ len(q) "
         "(a print does not stop the function).",
         when=lambda o: _wrapped(o) and o.value == o.case.args[0][o.case.args[1] - 1]
         or o.case.raises is not None and isinstance(o.error, IndexError) and o.case.args[1] > 0),
    Slip("refused a slot that exists", "slots run 1 to len(q), both in: raise only if i < 1 or "
         "i > len(q).",
         when=lambda o: isinstance(o.error, IndexError) and o.case.raises is None
         and "out of range" not in str(o.error)),
    Slip(_POSITIONS, "it lets slot 0 through and refuses slot len(q): check the slots 1 … len(q), "
         "not the positions 0 … len(q) − 1.", when=lambda o: _answered_0(o) or _refused_last(o)),
    Slip(_PAST, "Python raised, not your check: refuse i > len(q).",
         when=lambda o: o.case.raises and "of range" in str(o.error)
         and o.case.args[1] == len(o.case.args[0]) + 1),
    Slip(_UNNAMED, "the message must say which slots exist, like f\"q has slots 1 to {len(q)}\".",
         when=lambda o: isinstance(o.error, IndexError) and o.case.raises is not None
         and str(o.error).strip() and not _numbered(str(o.error)),
         example=lambda q, i: q[i - 1] if i >= 1 else _no_slot()),
    Slip("round brackets", "`q(i)` calls the list: q[i - 1].", raises=(TypeError, "not callable")),
]


SLOT = _Slot(
    "slot", "slot(q, i)",
    [(_Q, i) for i in (1, 3, 5, 7)] + [([9.5, -2.0], 2), ([7.5], 1), ([0.5, 1.5, 2.5], 2)]
    + [Case((_Q, i), raises=IndexError, says=_numbered) for i in (0, 8, -2)]
    + [Case(([7.5], 0), raises=IndexError, says=_numbered)],
    _slot, _SLOT_SLIPS)

_TABLE = {"the": [0.5, -1.0], "cat": [2.25, 1.5], "sat": [-1.0, 0.5], "on": [0.0, -2.0],
          "mat": [1.5, 2.75]}


def _rows(value):
    try:
        return [[float(x) for x in row] for row in value]
    except Exception:
        return None


def _repeats_dropped(o):
    sentence, table = o.case.args
    got = _rows(o.value)
    return got is not None and sorted(got) == sorted(table[w] for w in set(sentence))


def _letter(k, s):
    return isinstance(k, str) and len(k) == 1 and any(k in w for w in s)


def _each(o, test):
    v = o.value
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(test(x) for x in v)


_EMBED_SLIPS = [
    ("only the first word", "a return in the loop, or no loop? Loop over each word.",
     (lambda s, t: [t[s[0]]], lambda s, t: t[s[0]])),
    ("added the vectors", "one vector per word.",
     lambda s, t: np.sum([t[w] for w in s], 0).tolist()),
    ("= instead of append", "`vectors = table[word]` replaces the list: vectors.append(…).",
     (lambda s, t: t[s[-1]], lambda s, t: [t[s[-1]]])),
    ("+= glued the vectors", "`+= table[word]` glues all the numbers into one list: "
     "vectors.append(table[word]).", lambda s, t: [x for w in s for x in t[w]]),
    ("left out the first word", "range(1, len(sentence)) skips position 0.",
     lambda s, t: [t[w] for w in s[1:]]),
    ("left out the last word", "range(len(sentence) - 1) stops one word early.",
     lambda s, t: [t[w] for w in s[:-1]]),
    ("first word every time", "table[word], for each word.", lambda s, t: [t[s[0]]] * len(s)),
    ("the whole table", "look up the sentence's words only.", lambda s, t: list(t.values())),
    ("table order", "loop over the sentence.", lambda s, t: [v for w, v in t.items() if w in s]),
    ("sorted the words", "keep the sentence's order.", lambda s, t: [t[w] for w in sorted(s)]),
    Slip("each word once", "set(…) keeps each word once, maybe reordered: loop over the sentence.",
         when=_repeats_dropped),
    Slip("quoted the variable", "`table[\"word\"]` looks up the quoted text: table[word].",
         when=lambda o: missing_key(o, lambda k, s: isinstance(k, str) and not _letter(k, s)
                          and k.lower().strip() not in s)),
    Slip("looked up letters", "a loop over a string gives letters: `for word in sentence`.",
         when=lambda o: missing_key(o, _letter)),
    Slip("round brackets", "`table(word)` calls the table: table[word].",
         raises=(TypeError, "not callable")),
    Slip("split a list", "the sentence is already a list of words: no .split().",
         raises=(AttributeError, "split")),
    Slip("returned a dict", "a dict keeps each word once: return a list, a vector per word.",
         when=lambda o: isinstance(o.value, dict)),
    Slip("kept the words", "each item holds its word too: append table[word] alone.",
         when=lambda o: _each(o, lambda x: isinstance(x, (list, tuple))
                    and any(isinstance(y, str) for y in x))),
    Slip("returned the words", "return their vectors.",
         when=lambda o: _each(o, lambda x: isinstance(x, str))),
    Slip("one number per word", "a word's vector is a list: keep table[word] whole.",
         when=lambda o: len(o.value) == len(o.case.args[0])
         and _each(o, lambda x: isinstance(x, (int, float)))),
]


EMBED = CodeExercise(
    "embed", "embed(sentence, table)",
    [(s, _TABLE) for s in (["cat"], ["the", "cat"], ["cat", "the"], ["mat", "on", "sat"],
                           ["the", "cat", "sat", "on", "the", "mat"], ["on", "on"])],
    lambda sentence, table: [table[word] for word in sentence], _EMBED_SLIPS,
    show_args=lambda args: f"{args[0]!r}, table")

EXERCISES = [SLOT_HAND, SLOT, EMBED]
