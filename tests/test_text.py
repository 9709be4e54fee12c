"""course_lib.text: numbers as printed text, in columns; bad input is named."""

import pytest

from course_lib.text import fmt, labelled, rows_text, table_row


def test_fmt_writes_a_true_minus_sign_and_never_minus_zero():
    assert fmt(-2.5, 1) == "−2.5"
    assert fmt(-0.004, 2) == "0.00"
    assert "-" not in fmt(-1e-9, 3)


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
