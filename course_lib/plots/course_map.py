"""The course map: one box per notebook, and an arrow from A to B where B needs what A teaches
(B's "What you need" names A). An arrow that a longer path already implies is left out, so
following the arrows back from a box finds everything it builds on. 00 Start here is the page
the map sits on, and 10 only gathers the self-test cards: neither is a box."""

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

from .style import PALETTE

__all__ = ["COURSE_EDGES", "COURSE_NODES", "draw_course_map"]

# key: (label, notebook file, (x, y) position on the map); 00 to 09 in a row, 11 to 17 below
COURSE_NODES = {
    "python": ("The Python\nyou need", "00_python", (0.0, 1.5)),
    "vector": ("Vectors", "01_vectors", (1.6, 1.5)),
    "norm": ("Norm", "02_norm", (3.2, 1.5)),
    "sum": ("Summation", "03_summation", (4.8, 1.5)),
    "dot": ("Dot\nproduct", "04_dot_product", (6.4, 1.5)),
    "matrices": ("Matrices", "05_matrices", (8.0, 1.5)),
    "product": ("Transpose,\nproduct", "06_transpose_and_product", (9.6, 1.5)),
    "softmax": ("Softmax", "07_softmax", (11.2, 1.5)),
    "variance": ("Variance,\nscaling", "08_variance_and_scaling", (12.8, 1.5)),
    "attention": ("Attention", "09_attention", (14.4, 1.5)),
    "masks": ("Masks", "11_masks", (12.8, 0.0)),
    "multihead": ("Multi-head", "12_multi_head", (10.2, 0.0)),
    "gradients": ("Gradients", "13_gradients", (14.4, -1.3)),
    "tiled": ("Tiled\nattention", "14_tiled_attention", (10.2, -1.3)),
    "gpu": ("GPU", "15_gpu", (7.6, -1.3)),
    "decoding": ("Decoding", "16_decoding", (7.6, 0.0)),
    "model": ("A real\nmodel", "17_real_model", (5.0, 0.0)),
}

# tail → head: the head notebook needs the tail (tests/test_plots_style.py reads every
# notebook's "What you need" and checks that these are exactly the arrows it implies)
COURSE_EDGES = [
    ("python", "vector"), ("vector", "norm"), ("norm", "sum"), ("sum", "dot"),
    ("dot", "matrices"), ("matrices", "product"), ("product", "softmax"),
    ("softmax", "variance"), ("variance", "attention"),
    ("attention", "masks"), ("attention", "gradients"), ("masks", "multihead"),
    ("masks", "tiled"), ("gradients", "tiled"), ("tiled", "gpu"), ("multihead", "decoding"),
    ("tiled", "decoding"), ("decoding", "model"),
]

_START, _FORMULA = "python", "attention"


def _number(key):
    return int(COURSE_NODES[key][1][:2])


def draw_course_map(ax=None):
    """Draw the course map: a box per notebook (its number and topic), an arrow from each
    notebook to those that need it. The start (00 The Python you need) is light blue, the
    formula (09 Attention) orange, the notebooks beyond the formula white.

    Returns
    -------
    dict with ``"boxes"`` (key → the box patch) and ``"arrows"`` ((tail, head) → Annotation).
    """
    ax = plt.gca() if ax is None else ax
    ax.set_xlim(-0.8, 15.2)
    ax.set_ylim(-2.2, 2.3)
    ax.set_aspect("equal")
    ax.axis("off")
    boxes, arrows = {}, {}
    for key, (label, _, (x, y)) in COURSE_NODES.items():
        if key == _FORMULA:
            face = PALETTE["orange"]
        elif key == _START:
            face = PALETTE["sky_blue"]
        elif _number(key) > 10:
            face = "#ffffff"
        else:
            face = "#e8eef4"
        box = FancyBboxPatch((x - 0.6, y - 0.48), 1.2, 0.96, boxstyle="round,pad=0.04",
                             facecolor=face, edgecolor=PALETTE["black"], lw=1.2, zorder=2)
        ax.add_patch(box)
        ax.text(x, y + 0.25, f"{_number(key):02d}", ha="center", va="center", fontsize=10,
                fontweight="bold", zorder=3)
        ax.text(x, y - 0.12, label, ha="center", va="center", fontsize=9, zorder=3,
                linespacing=1.0)
        boxes[key] = box
    for tail, head in COURSE_EDGES:
        # patchA/patchB clip the arrow at the two boxes' edges
        arrows[(tail, head)] = ax.annotate(
            "", xy=COURSE_NODES[head][2], xytext=COURSE_NODES[tail][2], zorder=1,
            arrowprops={"arrowstyle": "-|>", "color": PALETTE["black"], "lw": 1.3,
                        "mutation_scale": 14, "shrinkA": 2, "shrinkB": 2,
                        "patchA": boxes[tail], "patchB": boxes[head]})
    ax.text(2.6, -1.3, "an arrow A → B: B needs what A teaches\n(follow the arrows back to "
            "find all it builds on)", fontsize=10, ha="center", va="center")
    ax.set_title("The course map: what each notebook needs")
    return {"boxes": boxes, "arrows": arrows}
