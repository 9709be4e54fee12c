"""The course's look: opaque light figures (readable in light and dark themes), restored
settings, the colour-blind-safe palette; and the course map of notebook 00."""

import itertools
import json
import re
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.colors import to_rgb

from course_lib.plots.course_map import COURSE_EDGES, COURSE_NODES, draw_course_map
from course_lib.plots.style import (
    BACKGROUND,
    FOREGROUND,
    PALETTE,
    ROLE_COLORS,
    course_style,
    detached_figure,
)


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


# Colour-vision deficiency as Machado, Oliveira & Fernandes (2009) simulate it at full
# severity: a 3 × 3 matrix on linear RGB.
DEFICIENCIES = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
    "typical vision": np.eye(3).tolist(),
}
APART = 12.0  # CIELAB distance (ΔE): about 2 is just noticeable, over 10 clearly different


def seen_as(color, deficiency):
    """The CIELAB colour (D65) that a viewer with ``deficiency`` sees for ``color``."""
    srgb = np.asarray(to_rgb(color))
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    linear = np.clip(np.asarray(DEFICIENCIES[deficiency]) @ linear, 0.0, 1.0)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ linear / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def closest_pair(colors, deficiency):
    """The smallest ΔE between two of ``colors`` (a dict) for that viewer, and the pair."""
    return min((float(np.linalg.norm(seen_as(a, deficiency) - seen_as(b, deficiency))), (x, y))
               for (x, a), (y, b) in itertools.combinations(colors.items(), 2))


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_role_colours_stay_apart_for_common_colour_blindness(deficiency):
    assert len(ROLE_COLORS) >= 3 and set(ROLE_COLORS.values()) <= set(PALETTE.values())
    distance, pair = closest_pair(ROLE_COLORS, deficiency)
    assert distance > APART, f"{pair} look alike under {deficiency} (ΔE {distance:.1f})"
    for role, color in ROLE_COLORS.items():  # and each stands out from the page
        on_page = np.linalg.norm(seen_as(color, deficiency) - seen_as(BACKGROUND, deficiency))
        assert on_page > 3 * APART, f"{role} fades into the background under {deficiency}"


def test_the_check_tells_red_from_green_apart_only_for_typical_vision():
    red_green = {"red": "#d62728", "green": "#2ca02c"}  # matplotlib's default red and green
    assert closest_pair(red_green, "typical vision")[0] > APART
    assert closest_pair(red_green, "deuteranopia")[0] < APART


@pytest.fixture
def ax():
    with course_style():
        yield detached_figure((5, 4)).add_subplot()


NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NOT_ON_THE_MAP = {"00_start_here", "10_checklist"}  # the page the map is on; the card deck


def _needs(stem):
    """The notebooks that a notebook's "What you need" section links to."""
    cells = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    section = text.split("## What you need", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"\]\((\d\d_\w+)\.ipynb", section)) - NOT_ON_THE_MAP


def _reachable(edges, start):
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        for tail, head in edges:
            if tail == node and head not in seen:
                seen.add(head)
                todo.append(head)
    return seen


def test_the_map_has_a_box_for_every_notebook(ax):
    artists = draw_course_map(ax=ax)
    files = {p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")} - NOT_ON_THE_MAP
    assert files and {stem for _, stem, _ in COURSE_NODES.values()} == files
    assert set(artists["boxes"]) == set(COURSE_NODES)
    assert set(artists["arrows"]) == set(COURSE_EDGES)
    texts = {t.get_text() for t in ax.texts}
    assert {stem[:2] for stem in files} <= texts  # each box shows its notebook's number


def test_the_map_draws_what_each_notebook_needs():
    """An arrow A → B for every notebook A that B's "What you need" names, except where a
    longer path of arrows already leads from A to B; and no other arrow."""
    key = {stem: k for k, (_, stem, _) in COURSE_NODES.items()}
    needs = {(key[tail], key[head]) for head in key for tail in _needs(head)}
    assert needs, "no notebook names what it needs"
    implied = {(a, b) for a, b in needs if b in _reachable(needs - {(a, b)}, a)}
    missing = sorted(needs - implied - set(COURSE_EDGES))
    extra = sorted(set(COURSE_EDGES) - (needs - implied))
    assert not missing and not extra, f"arrows to add: {missing}; arrows to drop: {extra}"
