"""course_lib.source: a function's code without its def line and docstring."""

import pytest

from course_lib.source import source_body


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


def test_source_body_cuts_from_first_to_last_and_dedents():
    assert source_body(Holder.method, first="if", last="return 1") == "if self:\n    return 1"
    assert source_body(Holder.method, first="return 1", last="return 1") == "return 1"
    assert source_body(with_docstring, last="doubled") == "doubled = 2 * x  # a comment stays"


def test_source_body_names_a_missing_line():
    with pytest.raises(ValueError, match="starts with 'yield'"):
        source_body(with_docstring, first="yield")
    with pytest.raises(ValueError, match="after 'return'"):
        source_body(with_docstring, first="return", last="doubled")
