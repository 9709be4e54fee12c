"""Checkers of notebooks 08 and 09: a correct answer passes, the stub is "not attempted yet",
and each typical mistake, written the way a learner would write it, gets its own hint."""

import math

import numpy as np
import pytest

from course_lib.exercises.attention import (
    ATTENTION_EXERCISE,
    check_attention,
    evaluate_attention,
)


def stub_raises(*args):
    raise NotImplementedError


def stub_passes(*args):
    pass


# --- notebook 09: attention(query, key, value) ----------------------------------------------

def _softmax_rows(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _softmax_naive(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def attention_ok(query, key, value):
    scores = query @ key.T / math.sqrt(query.shape[-1])
    return _softmax_rows(scores) @ value


def attention_ok_loops(query, key, value):
    d_k = len(query[0])
    out = []
    for q in query:
        scores = [sum(q[c] * k[c] for c in range(d_k)) / math.sqrt(d_k) for k in key]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        weights = [e / total for e in exps]
        out.append([sum(w * v[c] for w, v in zip(weights, value, strict=True))
                    for c in range(len(value[0]))])
    return out


def _scaled(query, key):
    return query @ key.T / math.sqrt(query.shape[-1])


ATTENTION_MISTAKES = {
    "weights applied to K": lambda q, k, v: _softmax_rows(_scaled(q, k)) @ k,
    "softmax over the wrong axis": lambda q, k, v: _softmax_rows(_scaled(q, k), axis=0) @ v,
    "missing transpose": lambda q, k, v: _softmax_rows(q @ k / math.sqrt(q.shape[-1])) @ v,
    "missing scale": lambda q, k, v: _softmax_rows(q @ k.T) @ v,
    "divided by d_k": lambda q, k, v: _softmax_rows(q @ k.T / q.shape[-1]) @ v,
    "returned the weights": lambda q, k, v: _softmax_rows(_scaled(q, k)),
    "softmax overflows": lambda q, k, v: _softmax_naive(_scaled(q, k)) @ v,
}


@pytest.mark.parametrize("func", [attention_ok, attention_ok_loops])
def test_attention_correct_answers_pass(func):
    feedback = evaluate_attention(func)
    assert feedback.passed, feedback.message


@pytest.mark.parametrize("stub", [stub_raises, stub_passes])
def test_attention_stub_is_not_attempted(stub):
    assert evaluate_attention(stub).status == "not attempted"


@pytest.mark.parametrize("name", sorted(ATTENTION_MISTAKES))
def test_attention_each_mistake_gets_its_hint(name):
    with np.errstate(over="ignore", invalid="ignore"):
        feedback = evaluate_attention(ATTENTION_MISTAKES[name])
    assert feedback.status == "mistake", feedback.message
    assert feedback.mistake == name
    hint = next(m.hint for m in ATTENTION_EXERCISE.mistakes if m.name == name)
    assert feedback.message == f"Not yet: {hint}"


def test_attention_every_mistake_is_tested():
    assert ATTENTION_EXERCISE.mistakes
    assert {m.name for m in ATTENTION_EXERCISE.mistakes} == set(ATTENTION_MISTAKES)


def test_attention_naive_softmax_really_overflows_on_the_big_case():
    big = ATTENTION_EXERCISE.cases[-1]
    with np.errstate(over="ignore", invalid="ignore"):
        naive = ATTENTION_MISTAKES["softmax overflows"](*big.args)
    assert not np.isfinite(naive).all()
    assert np.isfinite(big.expected).all()


def test_attention_overflow_prints_no_warning(capsys, recwarn):
    check_attention(ATTENTION_MISTAKES["softmax overflows"])
    out = capsys.readouterr()
    assert out.out.startswith("Not yet: right on every case except")
    assert out.err == ""
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_attention_cases_include_the_worked_example():
    by_hand = ATTENTION_EXERCISE.cases[0]
    e = math.e
    expected = [[6 * e / (2 * e + 1), 2.0], [2.0, 6 * e / (2 * e + 1)]]
    assert np.allclose(by_hand.expected, expected)


# --- notebook 10: the equipment checklist ---------------------------------------------------

def test_checklist_notebook_links_every_question_to_its_notebook():
    import re
    from pathlib import Path

    import nbformat

    from course_lib.checklist import CHECKLIST

    path = Path(__file__).resolve().parent.parent / "notebooks" / "10_checklist.ipynb"
    nb = nbformat.read(path, as_version=4)
    table = [line for cell in nb.cells if cell.cell_type == "markdown"
             for line in cell.source.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(table) == len(CHECKLIST) == 14
    for number, (line, question) in enumerate(zip(table, CHECKLIST, strict=True), start=1):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == str(number)
        assert cells[1] == question.question
        link = re.search(r"\]\((\d\d)_[a-z_]+\.ipynb\)", cells[2])
        assert link is not None and int(link.group(1)) == question.notebook


def test_checklist_answers_keep_the_square_root():
    from course_lib.checklist import CHECKLIST

    by_question = {q.question: q.answer for q in CHECKLIST}
    why = by_question["Why divide the scores by √d_k?"]
    assert "√d_k" in why and "standard deviation" in why
    assumption = by_question["Under what assumption does Var(q·k) = d_k hold?"]
    assert "independent" in assumption and "mean 0" in assumption and "variance 1" in assumption
