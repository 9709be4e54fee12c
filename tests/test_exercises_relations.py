"""The general relations name slips no table lists: learner-style wrong answers, written for
exercises where no blind batch made that kind of slip, each named by the relation alone."""

import math

import numpy as np
import pytest
from slip_checks import assert_named

from course_lib.exercises import evaluate


def scores_as_values(scores, values, block):
    """The running max and total taken over the values: the two inputs exchanged."""
    scores, values = values, scores
    m, total, out = -math.inf, 0.0, 0.0
    for start in range(0, len(scores), block):
        s, v = scores[start:start + block], values[start:start + block]
        new = max(m, max(s))
        total = total * math.exp(m - new) + sum(math.exp(x - new) for x in s)
        out = out * math.exp(m - new) + sum(math.exp(x - new) * y
                                            for x, y in zip(s, v, strict=True))
        m = new
    return out / total


def divides_by_the_shape(X, W_Q, W_K):
    K = X @ W_K
    return X @ W_Q @ K.T / np.sqrt(K.shape)


def returns_after_the_first_key(q, K):
    scores = []
    for row in K:
        scores.append(sum(a * b for a, b in zip(q, row, strict=True)))
        return scores


def true_division_for_the_offset(position, block_table, page_size):
    return block_table[position // page_size], position / page_size


def first_key_for_every_column(query, key):
    d = query.shape[-1]
    return np.array([[query[i] @ key[0] / math.sqrt(d) for _ in key] for i in range(len(query))])


def rows_twice(shape_a, shape_b):
    if shape_a[1] != shape_b[0]:
        raise ValueError(f"inner sizes {shape_a[1]} and {shape_b[0]} differ")
    return shape_a[0], shape_a[0]


def test_code_relations_name_unlisted_slips():
    cases = {
        "online_output": ("two inputs exchanged", scores_as_values),
        "self_scores": ("shapes that do not line up", divides_by_the_shape),
        "query_scores": ("stopped after one pass", returns_after_the_first_key),
        "slot_of": ("fractions where whole numbers are asked", true_division_for_the_offset),
        "scale_scores": ("the first row every time", first_key_for_every_column),
        "length": ("an empty input",  # the largest square as a start: none in an empty list
                   lambda q: math.sqrt(max(x * x for x in q) * 0 + sum(x * x for x in q))),
        "product_shape": ("a size read from the wrong place", rows_twice),
    }
    for name, (relation, answer) in cases.items():
        assert_named(name, {relation: [answer]}, minimum=1)


def test_mask_kept_where_the_answer_is_zero():
    def keeps_the_blocked(lengths, n, left):  # padding never applied to the last key
        mask = np.ones((len(lengths), 1, n, n), dtype=bool)
        for b, length in enumerate(lengths):
            pad = n - length
            if pad > 1:
                mask[b, :, :, slice(0, pad - 1) if left else slice(length + 1, n)] = False
        return mask
    assert_named("batch_mask", {"not 0 where the answer is 0": [keeps_the_blocked]}, minimum=1)


def test_by_hand_factors_and_complements():
    assert_named("variance by hand", {"off by a factor": [1.75, 7.0]}, minimum=2)  # 3.5
    assert_named("weights by hand", {"off by a factor": [(0.49, 0.18, 1.33)]}, minimum=1)
    assert_named("loop by hand", {"off by a factor": [58]}, minimum=1)  # 29
    assert_named("softmax weight by hand", {"off by a factor": [0.422]}, minimum=1)
    assert_named("masked weight by hand", {"off by a factor": [0.375]}, minimum=1)  # 0.75
    assert_named("softmax slope by hand", {"the other part's share": [0.895]}, minimum=1)
    assert_named("weight from the logsumexp", {"the other part's share": [0.911]}, minimum=1)


def test_a_one_digit_answer_is_not_said_to_be_off_by_a_factor():
    # ∂L/∂s₀ = 0.9: 0.45 is half of it, but a one-digit answer is doubled or halved by chance
    assert evaluate("score gradient by hand", 0.45).mistake != "off by a factor"


def test_fractions_are_only_named_where_every_answer_is_whole():
    # length([3, 4]) is 5, a whole number, but length's answers are not ints: no `//` hint
    feedback = evaluate("length", lambda q: math.sqrt(sum(x * abs(x) for x in q)))
    assert feedback.mistake != "fractions where whole numbers are asked"


def test_a_row_that_shows_on_fewer_cases_than_the_answer_is_wrong_is_not_named():
    def min_for_max(blocks):  # max(M, min(block)): right numbers nowhere the row is right
        m, total = -math.inf, 0.0
        for block in blocks:
            new = max(m, min(block))
            total = total * math.exp(m - new) + sum(math.exp(s - new) for s in block)
            m = new
        return m, total
    feedback = evaluate("running_stats", min_for_max)
    assert feedback.status != "passed"
    assert "block max instead of running max" not in (feedback.mistake or "")


def test_an_answer_of_zeros_is_said_to_be_zeros_not_cut():
    def cancels(a, grad_a):  # grad_a[j] in the total: aⱼ(gⱼ − Σₗ aₗgⱼ) = 0 for every j
        return [a[i] * (grad_a[i] - sum(a[j] * grad_a[i] for j in range(len(a))))
                for i in range(len(a))]
    feedback = evaluate("softmax_backward_row", cancels)  # [0, 0] is also what cutting gives
    assert feedback.status != "passed" and "all zeros" in feedback.mistake.split(" / ")
    assert_named("query_scores", {"all zeros": [lambda q, K: [0 * (q @ k) for k in K]]}, minimum=1)


def test_a_count_given_as_a_float_is_named():
    def halves_with_true_division(d_k, threads, limit):  # 64.0 where 64 keys are asked
        block = threads
        while block >= 1 and 4 * (d_k + block * (d_k + 1) + block) > limit:
            block = block / 2
        return block if block >= 1 else 0
    feedback = evaluate("largest key block", halves_with_true_division)
    assert feedback.mistake == "a float where a whole number is asked", feedback.message


SHOWN_ON = {  # a relation no learner-style answer above exercises, and an exercise it fits
    "the signs dropped": "mean", "inputs cut to whole numbers": "mean",
    "repeated numbers counted once": "sum_of_squares", "only the first two slots": "sum_of_squares",
    "the first entry counted twice": "sum_from_to", "one too many": "cost", "one too few": "cost",
    "only the first row": "softmax rows", "only the last row": "softmax rows",
    "moved one place along the first axis": "softmax rows",
    "moved one place along the second axis": "softmax rows",
    "ten times the answer": "length", "a tenth of the answer": "length",
    "a hundredth of the answer": "length", "rounded to whole numbers": "length", "sorted": "unit",
    "skipped the first column": "row means", "stopped one column early": "row means",
    "skipped the first column of every input": "scale_scores",
    "stopped one column early in every input": "scale_scores",
}


@pytest.mark.parametrize("relation_name", sorted(SHOWN_ON))
def test_a_relation_names_the_answer_it_predicts(relation_name):
    """The answer a relation predicts (here computed from the solution itself) is named by that
    relation: no table row or other relation takes it, so the relation is not dead code."""
    from course_lib.exercises import exercise
    from course_lib.exercises import relations as R
    from course_lib.exercises._values import copy_args, numeric
    from course_lib.exercises.engine import Case

    relation = next(r for r in R.TRANSFORMED + R.SHIFTED + R.INPUT_SIDE
                    if r.name == relation_name)
    ex = exercise(SHOWN_ON[relation_name])
    forms = relation.transform if isinstance(relation.transform, tuple) else (relation.transform,)
    said = []
    for form in forms:
        def answer(*args, form=form):
            expected = ex.solution(*copy_args(args))
            return form(numeric(expected), Case(tuple(args), expected), ex)

        feedback = ex.evaluate(answer)
        said.append(str(feedback))
        if feedback.mistake and relation_name in feedback.mistake.split(" / "):
            return
    pytest.fail(f"{relation_name} on {ex.name}: {said}")


def test_the_first_row_alone_asks_about_a_return_in_the_loop():
    """A loop over the queries that returns inside it gives row 0 alone, one axis short: the
    shape message says it starts as the answer does (a blind writer's answer got only shapes)."""
    def attention_return_in_loop(query, key, value):
        for q in query:
            scores = key @ q / math.sqrt(len(q))
            weights = np.exp(scores - scores.max())
            return weights / weights.sum() @ value

    feedback = evaluate("attention", attention_return_in_loop)
    assert feedback.mistake == "the wrong shape", feedback.message
    assert "starts as the answer does" in feedback.message, feedback.message


def test_a_broadcasting_error_is_read_from_its_two_shapes():
    def totals_without_keepdims(scores):  # (2, 3) ÷ (2,)
        e = np.exp(np.asarray(scores) - np.max(scores, axis=-1, keepdims=True))
        return e / e.sum(axis=-1)

    def weight_gradient_turned_over(q, k, v, grad_out):  # ∂L/∂A as V Gᵀ, (3, 2) against (2, 1)
        s = q @ k.T / math.sqrt(q.shape[1])
        a = np.exp(s - s.max(axis=1, keepdims=True))
        a /= a.sum(axis=1, keepdims=True)
        grad_a = v @ grad_out.T
        grad_s = a * (grad_a - (grad_a * a.T).sum(axis=0)[:, None])
        return grad_s @ k / math.sqrt(q.shape[1])

    lost = evaluate("softmax rows", totals_without_keepdims)
    turned = evaluate("query_gradient", weight_gradient_turned_over)
    assert lost.mistake == turned.mistake == "shapes that do not line up"
    assert "(2, 3) with (2,): a row max or total needs keepdims=True" in lost.message
    assert "turned over would pair up" in turned.message and "keepdims" not in turned.message


def test_a_by_hand_relation_needs_the_answer_s_digits():
    # 1/√128 = 0.0884 and √128 / 100 = 0.113 are 0.025 apart, inside ±0.05 / 2, but only one
    # of them has the digits of 0.0884
    feedback = evaluate("head divisor by hand", 0.0884)
    assert feedback.mistake == "the reciprocal", feedback.message
    assert evaluate("head divisor by hand", 0.113).mistake == "decimal point moved"


def test_bytes_given_in_kb_are_named():
    # 46,080 bytes a token, typed as 46.08: kB of 1000 bytes, not the bytes the prompt asks for
    assert evaluate("model cache by hand", 46.08).mistake == "kB, not bytes"


def test_parameters_that_do_not_fit_the_call_are_named_before_any_case():
    def length():  # no parameter: the checker calls length(q)
        return 0

    def dot_loop(pair):  # one parameter for two arguments
        return 0

    for name, func, takes in (("length", length, "()"), ("dot_loop", dot_loop, "(pair)")):
        feedback = evaluate(name, func)
        assert feedback.mistake == "other parameters", str(feedback)
        assert f"yours takes {takes}" in str(feedback)


def test_the_call_s_names_in_another_order_are_named_only_when_the_answer_is_wrong():
    def slot_of(block_table, position, page_size):  # the call is (position, block_table, …)
        return block_table[position // page_size], position % page_size

    feedback = evaluate("slot_of", slot_of)
    assert feedback.mistake == "other parameters", str(feedback)
    assert "yours takes (block_table, position, page_size)" in str(feedback)

    def dot_loop(k, q):  # q and k exchanged, but q · k = k · q: right, and so accepted
        if len(q) != len(k):
            raise ValueError(f"q has {len(q)} numbers and k has {len(k)}")
        return sum(a * b for a, b in zip(q, k, strict=True))

    assert evaluate("dot_loop", dot_loop).passed
