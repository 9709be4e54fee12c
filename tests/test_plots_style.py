"""The course's look: opaque light figures (readable in light and dark themes), restored
settings, the colour-blind-safe palette; and the course map of notebook 00."""

import matplotlib as mpl
import pytest
from matplotlib.colors import to_rgb

from course_lib.plots.course_map import (
    BEYOND_NODES,
    COURSE_EDGES,
    COURSE_NODES,
    draw_course_map,
)
from course_lib.plots.style import BACKGROUND, FOREGROUND, PALETTE, course_style, detached_figure


def _luminance(color):
    r, g, b = to_rgb(color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_course_style_is_opaque_light_and_restored_afterwards():
    before = dict(mpl.rcParams)
    with course_style():
        fig = detached_figure((2, 2))
        ax = fig.add_subplot()
        assert to_rgb(fig.get_facecolor()) == to_rgb(BACKGROUND)
        assert fig.get_facecolor()[3] == 1.0  # opaque: a dark theme cannot show through
        assert to_rgb(ax.get_facecolor()) == to_rgb(BACKGROUND)
        assert to_rgb(ax.xaxis.label.get_color()) == to_rgb(FOREGROUND)
    assert _luminance(BACKGROUND) - _luminance(FOREGROUND) > 0.8  # strong contrast
    assert dict(mpl.rcParams) == before


def test_palette_is_okabe_ito():
    assert len(PALETTE) == 8
    assert PALETTE["blue"] == "#0072B2" and PALETTE["vermillion"] == "#D55E00"


@pytest.fixture
def ax():
    with course_style():
        yield detached_figure((5, 4)).add_subplot()


def test_course_map_names_its_notebooks(ax):
    artists = draw_course_map(ax=ax)
    assert set(artists["boxes"]) == set(COURSE_NODES) | set(BEYOND_NODES)
    assert len(artists["arrows"]) == len(COURSE_EDGES) + len(BEYOND_NODES)
    numbers = sorted(number for _, number, _ in COURSE_NODES.values())
    assert numbers == list(range(1, 10))
    beyond = [number for _, number, _ in BEYOND_NODES.values()]
    assert beyond == list(range(11, 17))  # every notebook beyond the formula, in order
    assert ("attention", "masks") in artists["arrows"]
    texts = {t.get_text() for t in ax.texts}
    for number in numbers + beyond:
        assert f"{number:02d}" in texts
    # the graph flows one way: every arrow goes to a later notebook, ending at attention
    for tail, head in COURSE_EDGES:
        assert COURSE_NODES[tail][1] < COURSE_NODES[head][1]
    assert {head for _, head in COURSE_EDGES} >= {"dot", "attention"}
    assert not [key for key in COURSE_NODES if key != "attention"
                and key not in {tail for tail, _ in COURSE_EDGES}]
