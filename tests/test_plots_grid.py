"""The one grid-with-numbers drawer: numbers written with a true minus and never −0.0, empty
and blocked cells, and one rule for the text colour (white on dark or blocked cells)."""

import numpy as np
import pytest
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

from course_lib.plots.grid import draw_grid, fmt_cell, shown_cells, update_grid
from course_lib.plots.matrices import draw_matrix, update_matrix
from course_lib.plots.style import FOREGROUND


def _texts(artists):
    """The numbers written in the cells that are shown (None in an empty cell)."""
    shown = shown_cells(artists)
    return [[t.get_text() if shown[i, j] else None for j, t in enumerate(row)]
            for i, row in enumerate(artists["texts"])]


def test_draw_matrix_writes_every_value_with_a_true_minus_and_no_negative_zero():
    values = np.array([[1.25, -0.04], [-2.0, 0.0]])
    artists = draw_matrix(values, ax=Figure().add_subplot(), number_format="{:.1f}")
    assert _texts(artists) == [["1.2", "0.0"], ["−2.0", "0.0"]]
    assert np.array_equal(artists["cells"].get_array(), values)


@pytest.mark.parametrize(("form", "value", "text"), [("{:.1f}", -0.04, "0.0"),
                                                     ("{:.0f}", -3.0, "−3"),
                                                     ("{:.2f}", 0.5, "0.50"), ("✓", 1.0, "✓")])
def test_fmt_cell(form, value, text):
    assert fmt_cell(form, value) == text


def test_update_matrix_leaves_cells_outside_the_shown_block_empty():
    artists = draw_matrix(np.zeros((3, 4)), ax=Figure().add_subplot(), tint="#0072B2")
    assert shown_cells(artists).all()
    shown = np.zeros((3, 4), bool)
    shown[:2, :3] = True
    shown[2, 0] = True  # any pattern, not only blocks
    update_matrix(artists, shown=shown)
    assert np.array_equal(shown_cells(artists), shown)
    assert len(artists["cover"].get_paths()) == (~shown).sum()  # one square per empty cell


def test_a_smaller_grid_of_values_fills_the_top_left_block():
    artists = draw_matrix(np.zeros((3, 3)), ax=Figure().add_subplot(), number_format="{:.0f}")
    update_matrix(artists, np.array([[1.0, -2.0]]))
    assert _texts(artists) == [["1", "−2", None], [None] * 3, [None] * 3]


def test_draw_matrix_without_numbers_colours_the_cells_only():
    values = np.array([[0.1, -0.2], [0.0, 0.25]])
    artists = draw_matrix(values, ax=Figure().add_subplot(), limit=0.25, annotate=False)
    assert artists["texts"] == []
    assert np.array_equal(artists["cells"].get_array(), values)
    assert artists["cells"].norm.vmin == -0.25 and artists["cells"].norm.vmax == 0.25


def test_blocked_cells_show_their_text_and_are_masked():
    values = np.array([[0.9, 0.1], [0.3, 0.7]])
    mask = np.array([[True, False], [True, True]])
    artists = draw_grid(values, ax=Figure().add_subplot(), mask=mask, blocked_text="−∞",
                        vmin=0.0, vmax=1.0)
    assert [[t.get_text() for t in row] for row in artists["texts"]] == [["0.90", "−∞"],
                                                                       ["0.30", "0.70"]]
    assert artists["cells"].get_array().mask.tolist() == (~mask).tolist()
    update_grid(artists, values, np.ones((2, 2), bool))
    assert artists["texts"][0][1].get_text() == "0.10"


def test_one_text_colour_rule_white_on_dark_and_blocked_cells():
    values = np.array([[0.0, 1.0, 0.5]])
    artists = draw_grid(values, ax=Figure().add_subplot(), mask=[[True, True, False]],
                        cmap="Blues", vmin=0.0, vmax=1.0)
    colours = [to_rgb(t.get_color()) for t in artists["texts"][0]]
    assert colours == [to_rgb(FOREGROUND), to_rgb("white"), to_rgb("white")]


def test_tinted_grid_has_one_colour():
    artists = draw_grid(np.array([[-3.0, 4.0]]), ax=Figure().add_subplot(), tint="#D55E00")
    colours = artists["cells"].cmap(artists["cells"].norm([-3.0, 4.0]))
    assert np.array_equal(colours[0], colours[1])
    assert [t.get_color() for t in artists["texts"][0]] == [FOREGROUND, FOREGROUND]
