"""Notebooks 11-13: the exercises' feedback, the self-test cards, and the dashboards driven
without a browser."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from course_lib import causal_mask, scaled_dot_product_attention
from course_lib.exercises.gradients import (
    GRADIENT_QUESTIONS,
    check_softmax_backward_row,
    evaluate_softmax_backward_row,
)
from course_lib.exercises.masks import (
    MASK_QUESTIONS,
    check_masked_softmax,
    evaluate_masked_softmax,
)
from course_lib.exercises.multihead import (
    HEADS_QUESTIONS,
    check_head_weights,
    evaluate_head_weights,
)

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def stub_raises(*args):
    raise NotImplementedError


def stub_passes(*args):
    pass


# --- correct answers, written the way a learner would -------------------------------------

def masked_softmax_ok(scores, allowed):
    kept = [s for s, ok in zip(scores, allowed, strict=True) if ok]
    if not kept:
        return [0.0] * len(scores)
    top = max(kept)
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    total = sum(exps)
    return [e / total for e in exps]


def masked_softmax_numpy(scores, allowed):
    s = np.where(allowed, scores, -np.inf)
    if not np.any(allowed):
        return np.zeros(len(scores))
    e = np.exp(s - s.max())
    return e / e.sum()


def head_weights_ok(x, w_q, w_k, num_heads):
    x, w_q, w_k = np.asarray(x), np.asarray(w_q), np.asarray(w_k)
    n, d_model = x.shape[0], w_q.shape[1]
    d_k = d_model // num_heads
    q = (x @ w_q).reshape(n, num_heads, d_k).transpose(1, 0, 2)
    k = (x @ w_k).reshape(n, num_heads, d_k).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_k)
    scores -= scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)


def head_weights_loop(x, w_q, w_k, num_heads):
    x, w_q, w_k = np.asarray(x), np.asarray(w_q), np.asarray(w_k)
    d_k = w_q.shape[1] // num_heads
    heads = []
    for t in range(num_heads):
        cols = slice(t * d_k, (t + 1) * d_k)
        q, k = x @ w_q[:, cols], x @ w_k[:, cols]
        _, w = scaled_dot_product_attention(q, k, k, return_weights=True)
        heads.append(w)
    return np.stack(heads)


def softmax_backward_ok(a, grad_a):
    total = sum(ai * gi for ai, gi in zip(a, grad_a, strict=True))
    return [ai * (gi - total) for ai, gi in zip(a, grad_a, strict=True)]


CORRECT = [
    (evaluate_masked_softmax, masked_softmax_ok),
    (evaluate_masked_softmax, masked_softmax_numpy),
    (evaluate_head_weights, head_weights_ok),
    (evaluate_head_weights, head_weights_loop),
    (evaluate_softmax_backward_row, softmax_backward_ok),
    (evaluate_softmax_backward_row,
     lambda a, g: (np.diag(a) - np.outer(a, a)) @ np.asarray(g)),
]


@pytest.mark.parametrize(("evaluate", "func"), CORRECT)
def test_a_correct_answer_passes(evaluate, func):
    feedback = evaluate(func)
    assert feedback.passed, str(feedback)
    assert str(feedback).startswith("Correct")


@pytest.mark.parametrize("evaluate", [evaluate_masked_softmax, evaluate_head_weights,
                                      evaluate_softmax_backward_row])
@pytest.mark.parametrize("stub", [stub_raises, stub_passes])
def test_the_stub_is_not_attempted_yet(evaluate, stub):
    feedback = evaluate(stub)
    assert feedback.status == "not attempted"
    assert not feedback.passed


@pytest.mark.parametrize("check", [check_masked_softmax, check_head_weights,
                                   check_softmax_backward_row])
def test_check_prints_one_paragraph(check, capsys):
    assert check(stub_raises) is None
    out = capsys.readouterr().out
    assert out.startswith("Not attempted yet")
    assert out.count("\n") == 1


# --- each claimed mistake, made on purpose --------------------------------------------------

def masked_naive(scores, allowed):  # no max shift: overflows at 1000
    exps = [math.exp(s) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    total = sum(exps)
    if not any(allowed):
        return [0.0] * len(scores)
    return [e / total if total < math.inf else math.nan for e in exps]


def masked_nan_when_empty(scores, allowed):
    s = np.where(allowed, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max())
        return e / e.sum()


def masked_inverted(scores, allowed):
    return masked_softmax_ok(scores, [not ok for ok in allowed])


def masked_zero_after(scores, allowed):
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total if ok else 0.0 for e, ok in zip(exps, allowed, strict=True)]


def masked_with_zero(scores, allowed):
    return masked_softmax_ok([s if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)],
                             [True] * len(scores))


def heads_scaled_by(scale_of, split_rows=False, axis=-1):
    def func(x, w_q, w_k, num_heads):
        x, w_q, w_k = np.asarray(x), np.asarray(w_q), np.asarray(w_k)
        n, d_model = x.shape[0], w_q.shape[1]
        d_k = d_model // num_heads
        if split_rows:
            q = (x @ w_q).reshape(num_heads, n, d_k)
            k = (x @ w_k).reshape(num_heads, n, d_k)
        else:
            q = (x @ w_q).reshape(n, num_heads, d_k).transpose(1, 0, 2)
            k = (x @ w_k).reshape(n, num_heads, d_k).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) * scale_of(d_k, d_model)
        e = np.exp(scores - scores.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    return func


MISTAKES = [
    (evaluate_masked_softmax, "True means blocked", masked_inverted),
    (evaluate_masked_softmax, "zeroed after the softmax", masked_zero_after),
    (evaluate_masked_softmax, "masked with 0", masked_with_zero),
    (evaluate_masked_softmax, "NaN when everything is blocked", masked_nan_when_empty),
    (evaluate_masked_softmax, "overflow", masked_naive),
    (evaluate_head_weights, "scaled by √d_model",
     heads_scaled_by(lambda d_k, d: 1 / math.sqrt(d))),
    (evaluate_head_weights, "no scale", heads_scaled_by(lambda d_k, d: 1.0)),
    (evaluate_head_weights, "divided by d_k", heads_scaled_by(lambda d_k, d: 1 / d_k)),
    (evaluate_head_weights, "reshaped without moving the head axis",
     heads_scaled_by(lambda d_k, d: 1 / math.sqrt(d_k), split_rows=True)),
    (evaluate_head_weights, "softmax over the wrong axis",
     heads_scaled_by(lambda d_k, d: 1 / math.sqrt(d_k), axis=-2)),
    (evaluate_softmax_backward_row, "forgot the row total",
     lambda a, g: [ai * gi for ai, gi in zip(a, g, strict=True)]),
    (evaluate_softmax_backward_row, "forgot to multiply by a",
     lambda a, g: [gi - sum(x * y for x, y in zip(a, g, strict=True)) for gi in g]),
    (evaluate_softmax_backward_row, "plain mean",
     lambda a, g: [ai * (gi - sum(g) / len(g)) for ai, gi in zip(a, g, strict=True)]),
    (evaluate_softmax_backward_row, "diagonal only",
     lambda a, g: [ai * (1 - ai) * gi for ai, gi in zip(a, g, strict=True)]),
]


@pytest.mark.parametrize(("evaluate", "name", "func"), MISTAKES)
def test_each_mistake_gets_its_own_hint(evaluate, name, func):
    feedback = evaluate(func)
    assert feedback.status == "mistake", str(feedback)
    assert feedback.mistake == name
    assert str(feedback).startswith("Not yet")


def test_an_unrecognised_answer_shows_the_smallest_failing_case():
    feedback = evaluate_softmax_backward_row(lambda a, g: [0.0 for _ in a])
    assert feedback.status == "failed"
    assert "[0.5, 0.5]" in str(feedback)


# --- self-test cards and their static twin in the notebooks -------------------------------

CARD_SETS = [(MASK_QUESTIONS, 11, "11_masks.ipynb"), (HEADS_QUESTIONS, 12, "12_multi_head.ipynb"),
             (GRADIENT_QUESTIONS, 13, "13_gradients.ipynb")]


@pytest.mark.parametrize(("questions", "number", "name"), CARD_SETS)
def test_cards_belong_to_their_notebook(questions, number, name):
    assert len(questions) >= 3
    for card in questions:
        assert card.notebook == number
        assert card.question.endswith("?")
        assert len(card.answer) > 20


@pytest.mark.parametrize(("questions", "number", "name"), CARD_SETS)
def test_static_twin_holds_every_card(questions, number, name):
    quiz = pytest.importorskip("course_lib.quiz", reason="ipywidgets is not installed")
    deck = quiz.Deck(questions)
    assert len(deck.cards) == len(questions)
    path = NOTEBOOKS / name
    if not path.exists():
        pytest.skip(f"{name} is not written yet")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for card in questions:
        assert card.question.replace("<", "&lt;").replace(">", "&gt;") in text
        assert card.answer.replace("<", "&lt;").replace(">", "&gt;") in text


# --- dashboards, driven without a browser ---------------------------------------------------

def test_mask_dashboard_renormalises_over_the_allowed_keys():
    pytest.importorskip("ipywidgets")
    from course_lib.widgets.masks import MASK_TOKENS, mask_dashboard, mask_example

    dash = mask_dashboard(causal_mask(5))
    assert "10 of 25 cells blocked" in dash.readout_text()
    first_png = dash.image.value
    dash.controls["cell_1_3"].value = True  # let "cat" see "on"
    assert "9 of 25 cells blocked" in dash.readout_text()
    assert dash.image.value != first_png
    assert dash.controls["cell_1_3"].description == "✓"
    weights = dash.artists["weights"]["cells"].get_array()
    q, k, v = mask_example()
    mask = np.asarray(causal_mask(5))
    mask[1, 3] = True
    _, want = scaled_dot_product_attention(q, k, v, attn_mask=mask, return_weights=True)
    np.testing.assert_allclose(np.ma.filled(weights, 0.0), want, rtol=1e-12)
    assert dash.artists["weights"]["numbers"].texts[1][2] == "0"
    assert dash.artists["scores"]["numbers"].texts[1][2] == "−∞"
    for j in range(len(MASK_TOKENS)):
        dash.controls[f"cell_0_{j}"].value = False
    assert "fully blocked: the" in dash.readout_text()
    assert "the 0.000" in dash.readout_text()
    assert "run the notebook" in repr(dash)


def test_gradient_dashboard_shows_the_vanishing_gradient():
    pytest.importorskip("ipywidgets")
    from course_lib.widgets.gradients import D_K_CHOICES, gradient_dashboard

    dash = gradient_dashboard(d_k=1)
    assert D_K_CHOICES[0] == 1 and D_K_CHOICES[-1] == 1024
    small = [bar.get_height() for bar in dash.artists["grad_unscaled"]]
    assert max(abs(h) for h in small) > 0.05  # d_k = 1: the scale is 1 either way
    dash.controls["d_k"].value = 1024
    raw = [bar.get_height() for bar in dash.artists["grad_unscaled"]]
    scaled = [bar.get_height() for bar in dash.artists["grad_scaled"]]
    assert max(abs(h) for h in raw) < 1e-6
    assert max(abs(h) for h in scaled) > 0.05
    assert max(bar.get_height() for bar in dash.artists["weights_unscaled"]) > 0.999
    assert dash.readout_text().startswith("d_k = 1024")


def test_heads_dashboard_follows_the_number_of_heads():
    pytest.importorskip("ipywidgets")
    from course_lib.widgets.multihead import heads_dashboard

    dash = heads_dashboard(num_heads=2, head=1)
    assert "d_k = 8 / 2 = 4" in dash.readout_text()
    assert dash.controls["head"].max == 1
    dash.controls["num_heads"].value = 8
    assert dash.controls["head"].max == 7
    assert "√1 = 1.000" in dash.readout_text()
    dash.controls["head"].value = 6
    assert "head 6's largest weight" in dash.readout_text()
    dash.controls["num_heads"].value = 4
    assert dash.controls["head"].value <= 3
    assert "d_k = 8 / 4 = 2" in dash.readout_text()
    visible = [text != "" for text in dash.artists["slices"]["labels"].texts]
    assert visible == [True] * 4 + [False] * 4
