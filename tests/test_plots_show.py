"""The one-line helpers of course_lib.plots.show: their text is exact, bad input is named."""

import pytest

from course_lib.plots.show import best_time, labelled, rows_text, source_body, table_row


def with_docstring(x):
    """Twice x.

    More words, and a quote: \"\"\"
    """
    doubled = 2 * x  # a comment stays
    return doubled


def without_docstring(x):
    y = x + 1
    return y


def one_line(x): return x * 3  # noqa: E704


def only_docstring():
    """Nothing else."""


class Holder:
    def method(self):
        """A method."""
        if self:
            return 1
        return 0


def test_source_body_drops_the_def_line_and_the_docstring():
    assert source_body(with_docstring) == "doubled = 2 * x  # a comment stays\nreturn doubled"


def test_source_body_without_a_docstring_keeps_every_line():
    assert source_body(without_docstring) == "y = x + 1\nreturn y"


def test_source_body_of_one_line_and_empty_functions():
    assert source_body(one_line) == "return x * 3  # noqa: E704"
    assert source_body(only_docstring) == ""


def test_source_body_dedents_a_method():
    assert source_body(Holder.method) == "if self:\n    return 1\nreturn 0"


def test_source_body_rejects_what_is_not_a_def():
    with pytest.raises(TypeError, match="defined with def"):
        source_body(Holder)


def test_rows_text_aligns_names_and_columns():
    lines = rows_text([[1, -12.25], [3, 4]], ["a", "long"], digits=1).splitlines()
    assert lines == ["   a:   1.0  −12.2", "long:   3.0    4.0"]
    assert len({len(line) for line in lines}) == 1


def test_rows_text_names_a_count_mismatch():
    with pytest.raises(ValueError, match="2 rows but 1 row names"):
        rows_text([[1], [2]], ["a"])


def test_labelled_pads_label_and_numbers():
    assert labelled("  scores", [-1.5, 10], digits=1, width=10, number_width=6, sep=" ") == \
        "  scores    −1.5   10.0"


def test_table_row_with_one_width_per_column():
    assert table_row(["n", 1024, "0.5 GiB"], width=[3, 6, 9]) == "  n  1024  0.5 GiB"
    with pytest.raises(ValueError, match="2 cells but 3 column widths"):
        table_row(["n", 1], width=[3, 6, 9])


def test_best_time_runs_sync_after_every_call_and_fills_the_budget():
    events = []
    best = best_time(events.append, "call", repeats=3, sync=lambda: events.append("sync"))
    assert events == ["call", "sync"] * 3
    assert best >= 0
    count = []
    best_time(count.append, 1, repeats=1, budget=0.01)
    assert len(count) > 1  # one call of list.append takes far less than 10 ms


def test_best_time_passes_keywords_to_the_call():
    seen = []
    best_time(lambda *args, **kwargs: seen.append((args, kwargs)), 1, is_causal=True, repeats=2)
    assert seen == [((1,), {"is_causal": True})] * 2
