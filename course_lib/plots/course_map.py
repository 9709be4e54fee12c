"""The course map: which idea feeds which, from the leaves (vector, Σ) to the trunk (scaled
attention). Each arrow means "own the tail before the head"; variance and scaling (08) sits
after softmax, because it measures what growing dot products do to softmax. Below the
trunk, the notebooks beyond the formula (11–16), joined by dashed arrows in course order."""

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

from .style import PALETTE

__all__ = ["BEYOND_NODES", "COURSE_EDGES", "COURSE_NODES", "draw_course_map"]

# key: (label, notebook number, (x, y) position on the map)
COURSE_NODES = {
    "vector": ("Vector", 1, (0.0, 1.2)),
    "norm": ("Norm\n(length)", 2, (2.2, 1.2)),
    "sum": ("Summation\n(adding up)", 3, (2.2, -0.6)),
    "dot": ("Dot\nproduct", 4, (4.4, 0.3)),
    "matrices": ("Matrices", 5, (6.6, 0.3)),
    "product": ("Transpose and\nmatrix product", 6, (8.8, 0.3)),
    "softmax": ("Softmax", 7, (11.0, 1.2)),
    "variance": ("Variance and\nscaling", 8, (11.0, -0.6)),
    "attention": ("Scaled\nattention", 9, (13.2, 0.3)),
}

# tail → head: you need the tail to understand the head
COURSE_EDGES = [
    ("vector", "norm"),
    ("norm", "dot"),
    ("sum", "dot"),
    ("dot", "matrices"),
    ("matrices", "product"),
    ("product", "softmax"),
    ("softmax", "attention"),
    ("softmax", "variance"),
    ("variance", "attention"),
]

# beyond the formula, in course order from right to left, starting under the trunk (09)
BEYOND_NODES = {
    "masks": ("Masks", 11, (13.2, -1.9)),
    "multihead": ("Multi-head", 12, (11.0, -1.9)),
    "gradients": ("Gradients", 13, (8.8, -1.9)),
    "tiled": ("Tiled\nattention", 14, (6.6, -1.9)),
    "gpu": ("GPU", 15, (4.4, -1.9)),
    "decoding": ("Decoding", 16, (2.2, -1.9)),
}

_LEAF = {"vector", "sum"}


def draw_course_map(ax=None):
    """Draw the concept graph: one box per idea, naming its notebook, arrows from each
    prerequisite to what it unlocks. Leaves are light blue, the trunk (attention) orange.

    Returns
    -------
    dict with ``"boxes"`` (key → the box patch) and ``"arrows"`` ((tail, head) → Annotation).
    """
    ax = plt.gca() if ax is None else ax
    ax.set_xlim(-0.9, 14.1)
    ax.set_ylim(-2.85, 1.75)
    ax.set_aspect("equal")
    ax.axis("off")
    boxes, arrows = {}, {}
    for key, (label, number, (x, y)) in {**COURSE_NODES, **BEYOND_NODES}.items():
        if key == "attention":
            face = PALETTE["orange"]
        elif key in _LEAF:
            face = PALETTE["sky_blue"]
        elif key in BEYOND_NODES:
            face = "#ffffff"
        else:
            face = "#e8eef4"
        width = 1.95 if key in ("product", "variance") else 1.4
        box = FancyBboxPatch((x - width / 2, y - 0.45), width, 0.9,
                             boxstyle="round,pad=0.04", facecolor=face,
                             edgecolor=PALETTE["black"], lw=1.2, zorder=2)
        ax.add_patch(box)
        ax.text(x, y + 0.22, f"{number:02d}", ha="center", va="center", fontsize=10,
                fontweight="bold", zorder=3)
        ax.text(x, y - 0.12, label, ha="center", va="center", fontsize=10, zorder=3,
                linespacing=1.0)
        boxes[key] = box
    for tail, head in COURSE_EDGES:
        # patchA/patchB clip the arrow at the two boxes' edges
        arrows[(tail, head)] = ax.annotate(
            "", xy=COURSE_NODES[head][2], xytext=COURSE_NODES[tail][2], zorder=1,
            arrowprops={"arrowstyle": "-|>", "color": PALETTE["black"], "lw": 1.4,
                        "mutation_scale": 16, "shrinkA": 3, "shrinkB": 3,
                        "patchA": boxes[tail], "patchB": boxes[head]})
    beyond = ["attention", *BEYOND_NODES]
    for tail, head in zip(beyond[:-1], beyond[1:], strict=True):  # dashed: course order
        start = (COURSE_NODES | BEYOND_NODES)[tail][2]
        arrows[(tail, head)] = ax.annotate(
            "", xy=BEYOND_NODES[head][2], xytext=start, zorder=1,
            arrowprops={"arrowstyle": "-|>", "color": PALETTE["black"], "lw": 1.2,
                        "linestyle": "--", "mutation_scale": 14, "shrinkA": 3, "shrinkB": 3,
                        "patchA": boxes[tail], "patchB": boxes[head]})
    ax.text(7.7, -2.62, "Beyond the formula: 11 to 16 in course order (dashed arrows)",
            fontsize=10, ha="center", va="center")
    ax.set_title("The course map: own the tail of each arrow before its head")
    return {"boxes": boxes, "arrows": arrows}
