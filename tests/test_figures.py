"""Every public plot function's picture, compared with a baseline image (pytest-mpl).

Each case below draws one ``course_lib.plots`` function at fixed inputs, in the course's
style (``course_lib.plots.style.course_rc``); pytest-mpl compares the figure with
``tests/baseline/<test name>.png`` (root-mean-square difference of the pixels, 0–255 scale,
at most ``figure_check.TOLERANCE``). ``--mpl`` and the baseline folder are set in
``pyproject.toml``.

Baselines belong to one matplotlib version, the newest in ``requirements-lock.txt``
(``tests/baseline/MATPLOTLIB_VERSION``); with another version the comparisons skip with one
reason line. A plot function changed on purpose: regenerate the baselines
(``make baselines``, CONTRIBUTING "Regenerating the figure baselines") and look at them.

Adding a plot function: add a case with ``@case("module.draw_x")`` (several cases of one
function: ``"module.draw_x+variant"``); ``test_every_plot_function_has_a_case`` lists those
without one.
"""

import base64
import importlib
import os
import pkgutil
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from figure_check import BASELINE, TOLERANCE, baseline_version, version_mismatch

import course_lib.plots
from course_lib.plots.style import course_rc

ROOT = Path(__file__).resolve().parents[1]
ON_CI = os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")
DPI = 72  # small files (the whole set well under 1 MB), still every label readable
CASES = {}


def case(name, figsize=(6.4, 4.0), layout="constrained"):
    """Register ``draw(fig, function)`` as the picture of ``course_lib.plots.<name>``.

    ``layout=None`` for a function that draws a whole figure (``fig=``) and lays it out.
    """
    def register(draw):
        assert name not in CASES, f"two figure cases are called {name}"
        CASES[name] = (draw, figsize, layout)
        return draw
    return register


def plot_function(name):
    module, function = name.split("+")[0].split(".")
    return getattr(importlib.import_module(f"course_lib.plots.{module}"), function)


def lock_matplotlib_versions():
    lock = (ROOT / "requirements-lock.txt").read_text(encoding="utf-8")
    return re.findall(r"^matplotlib==([\d.]+)", lock, flags=re.MULTILINE)


def _release(version):
    return tuple(int(part) for part in version.split("."))


WORDS = ("the", "cat", "sat", "down")
WEIGHTS = np.array([[0.70, 0.10, 0.15, 0.05],
                    [0.20, 0.50, 0.20, 0.10],
                    [0.05, 0.40, 0.40, 0.15],
                    [0.25, 0.25, 0.25, 0.25]])
VALUES = np.array([[1.0, 2.0], [-2.0, 1.0], [0.5, -1.5], [2.0, -0.5]])
GRID = np.array([[1.2, -0.4, 0.3], [0.0, 2.1, -1.7]])


# --- the cases, one per public draw_* function (in module order) ------------------------------

@case("attention.draw_attention_panels", figsize=(11.0, 4.2), layout=None)
def _(fig, draw):
    draw(list(WORDS), VALUES, WEIGHTS, WEIGHTS @ VALUES, row=1, fig=fig)


@case("attention.draw_row_weights")
def _(fig, draw):
    draw(WEIGHTS[0], list(WORDS), ax=fig.add_subplot())


@case("attention.draw_value_blend", figsize=(5.0, 5.0))
def _(fig, draw):
    draw(VALUES, WEIGHTS[2], WEIGHTS[2] @ VALUES, list(WORDS), ax=fig.add_subplot())


@case("attention.draw_weight_grid", figsize=(5.0, 4.5))
def _(fig, draw):
    draw(WEIGHTS, list(WORDS), ax=fig.add_subplot(), row=2)


@case("attention.draw_weight_grids", figsize=(11.0, 4.0), layout=None)
def _(fig, draw):
    sharper = WEIGHTS ** 3 / (WEIGHTS ** 3).sum(axis=1, keepdims=True)
    draw({"scores ÷ √d_k": WEIGHTS, "not scaled": sharper}, list(WORDS), fig=fig)


@case("course_map.draw_course_map", figsize=(11.0, 5.2))
def _(fig, draw):
    draw(ax=fig.add_subplot())


@case("decoding.draw_block_table", figsize=(8.0, 3.4))
def _(fig, draw):
    draw(np.array([[0, 3, 6, 8], [1, 4, -1, -1], [2, 5, 7, -1]]), [7, 3, 5], 2, num_blocks=10,
         ax=fig.add_subplot())


@case("decoding.draw_cache_memory", figsize=(7.0, 2.6))
def _(fig, draw):
    draw({"multi-head": 80.0, "grouped-query": 10.0, "multi-query": 1.25}, 40,
         ax=fig.add_subplot())


@case("decoding.draw_cache_step", figsize=(11.0, 4.0))
def _(fig, draw):
    rng = np.random.default_rng(16)
    query, key, value = (rng.standard_normal(shape) for shape in ((5, 4), (5, 4), (5, 3)))
    draw(query, key, value, 2, fig.subplots(1, 3, width_ratios=[4, 5, 3]))


@case("decoding.draw_head_groups", figsize=(7.0, 2.4))
def _(fig, draw):
    draw(8, 2, ax=fig.add_subplot())


@case("decoding.draw_rotating_pair", figsize=(5.0, 5.0))
def _(fig, draw):
    draw(np.array([1.0, 0.6, 0.3, 0.9]), list(range(5)), 0, ax=fig.add_subplot(), base=100.0)


@case("dot_product.draw_dot_panels", figsize=(11.0, 4.0), layout=None)
def _(fig, draw):
    draw(np.array([3.0, 1.0]), np.array([1.0, 2.0]), fig=fig)


@case("dot_product.draw_dot_scene", figsize=(5.0, 5.0))
def _(fig, draw):
    draw(np.array([3.0, 1.0]), np.array([-1.0, 2.0]), ax=fig.add_subplot())


@case("dot_product.draw_similarity_meter", figsize=(5.0, 2.0))
def _(fig, draw):
    draw(5.0, 7.0, ax=fig.add_subplot())


@case("dot_product.draw_slot_products")
def _(fig, draw):
    draw(np.array([3.0, 1.0, -2.0]), np.array([1.0, 2.0, 0.5]), ax=fig.add_subplot())


@case("gpu.draw_block_memory", figsize=(11.0, 6.6), layout=None)
def _(fig, draw):
    from course_lib.fast.gpu_kernel import halving_rounds, shared_words

    draw(shared_words(8, 4), shared_words(32, 4, 0), shared_words(32, 4, 1),
         halving_rounds([0.5, -1.0, 1.5, 2.0]), fig=fig)


@case("gpu.draw_memory_fit", figsize=(7.0, 3.0))
def _(fig, draw):
    draw(48.0, 0.25, 16.0, ax=fig.add_subplot())


@case("gradients.draw_gradient_check", figsize=(5.0, 5.0))
def _(fig, draw):
    analytic = np.linspace(-1.0, 1.0, 12)
    draw(analytic, analytic + 1e-3 * np.sin(7 * analytic), ax=fig.add_subplot())


@case("gradients.draw_loss_curves", figsize=(10.0, 3.5))
def _(fig, draw):
    steps = np.arange(30)
    draw(2.0 * np.exp(-steps / 8), 2.0 - 0.01 * steps, fig.subplots(1, 2, sharey=True))


@case("gradients.draw_row_bars")
def _(fig, draw):
    draw(WEIGHTS[1], ax=fig.add_subplot(), ylabel="weight")


@case("gradients.draw_score_gradient_vs_dk")
def _(fig, draw):
    d_ks = np.array([1, 4, 16, 64, 256])
    draw(d_ks, np.full(5, 0.3), 0.3 / np.sqrt(d_ks), ax=fig.add_subplot())


@case("grid.draw_grid", figsize=(5.0, 3.5))
def _(fig, draw):
    draw(GRID, ax=fig.add_subplot(), mask=np.array([[True, False, True], [True, True, False]]),
         title="a grid")


@case("low_precision.draw_accumulation_errors")
def _(fig, draw):
    draw([64, 256, 1024], {"float32": [3e-3, 2.5e-3, 2.7e-3], "low": [2e-2, 6e-2, 4e-1],
                           "p_rounded": [3.4e-3, 3.1e-3, 3.3e-3]},
         "bfloat16", ax=fig.add_subplot())


@case("masks.draw_annotated_grid", figsize=(5.0, 4.5))
def _(fig, draw):
    mask = np.tril(np.ones((4, 4), dtype=bool))
    draw(WEIGHTS, mask, ax=fig.add_subplot(), row_labels=WORDS, col_labels=WORDS)


@case("masks.draw_mask", figsize=(5.0, 4.5))
def _(fig, draw):
    draw(np.tril(np.ones((4, 4), dtype=bool)), ax=fig.add_subplot(), title="causal mask")


@case("matrices.draw_matrix", figsize=(5.0, 3.5))
def _(fig, draw):
    draw(GRID, ax=fig.add_subplot(), title="M")


@case("matrices.draw_product_panels", figsize=(11.0, 4.0), layout=None)
def _(fig, draw):
    query = np.array([[1.0, 2.0, 0.0], [3.0, -1.0, 1.0]])
    key = np.array([[2.0, 0.0, 1.0], [1.0, 1.0, -1.0], [0.0, 2.0, 2.0]])
    draw(query, key, 1, 2, fig=fig)


@case("matrices.draw_projections", figsize=(8.5, 7.5), layout=None)
def _(fig, draw):
    x = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.0]])
    w_q, w_k = (np.round(np.random.default_rng(seed).standard_normal((3, 2)), 1)
                for seed in (1, 2))
    w_v = np.round(np.random.default_rng(3).standard_normal((3, 3)), 1)
    draw(x, w_q, w_k, w_v, words=["the", "cat", "sat"], fig=fig)


@case("matrices.draw_shape_panels", figsize=(11.0, 4.0), layout=None)
def _(fig, draw):
    rng = np.random.default_rng(5)
    query, key, value = (rng.integers(-3, 4, shape).astype(float)
                         for shape in ((6, 4), (6, 4), (6, 3)))
    draw(query, key, value, 3, 5, 2, 2, fig=fig)


@case("multihead.draw_head_slices", figsize=(7.0, 2.5))
def _(fig, draw):
    draw(8, 2, ax=fig.add_subplot(), highlight=1)


@case("model.draw_block", figsize=(8.0, 5.0))
def _(fig, draw):
    draw(ax=fig.add_subplot())


@case("model.draw_head_grid", figsize=(6.0, 5.6))
def _(fig, draw):
    causal = np.tril(WEIGHTS) / np.tril(WEIGHTS).sum(axis=1, keepdims=True)
    draw(causal, [" The", " cat", " sat", " down"], ax=fig.add_subplot(), size=6,
         title="layer 16, head 0", annotate=True)


@case("multihead.draw_head_weights", figsize=(10.0, 4.0))
def _(fig, draw):
    draw(np.stack([WEIGHTS, WEIGHTS[::-1]]), fig.subplots(1, 2), row_labels=WORDS,
         col_labels=WORDS)


@case("norm.draw_pythagoras", figsize=(5.0, 5.0))
def _(fig, draw):
    draw(np.array([3.0, 4.0]), ax=fig.add_subplot())


@case("shadows.draw_shadow", figsize=(5.0, 5.0))
def _(fig, draw):
    draw(2.0, 3.0, 50.0, ax=fig.add_subplot())


@case("shadows.draw_unit_circle", figsize=(5.0, 5.0))
def _(fig, draw):
    draw(60.0, ax=fig.add_subplot())


@case("softmax.draw_saturation_panels", figsize=(11.0, 4.0), layout=None)
def _(fig, draw):
    draw(np.array([2.0, 1.0, 0.1, -1.0]), 3.0, fig=fig)


@case("softmax.draw_slope_picture")
def _(fig, draw):
    draw(np.array([2.0, 1.0, 0.1]), index=0, ax=fig.add_subplot())


@case("softmax.draw_weights")
def _(fig, draw):
    draw(WEIGHTS[0], ax=fig.add_subplot(), labels=list(WORDS), title="softmax weights")


@case("summation.draw_sum_terms")
def _(fig, draw):
    draw(np.array([1.5, -0.5, 2.0, 0.75]), 3, ax=fig.add_subplot())


@case("tiles.draw_causal_tiles", figsize=(8.0, 4.0))
def _(fig, draw):
    draw(24, 40, (8, 6), ax=fig.add_subplot())


@case("tiles.draw_memory_traffic")
def _(fig, draw):
    draw(2048, ax=fig.add_subplot())


@case("tiled.draw_memory_growth")
def _(fig, draw):
    draw([512, 2048, 8192, 32768], ax=fig.add_subplot())


@case("tiled.draw_online_softmax", figsize=(11.0, 5.0))
def _(fig, draw):
    rng = np.random.default_rng(3)
    query, key, value = (rng.standard_normal(shape) for shape in ((2, 4), (8, 4), (8, 2)))
    from course_lib.online_view import online_softmax_view

    view = online_softmax_view(query, key, value, 2, 0, 2)
    grid = fig.add_gridspec(2, 2)
    axes = (fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]),
            fig.add_subplot(grid[:, 1]))
    draw(view, axes)


@case("variance.draw_against_dk")
def _(fig, draw):
    d_ks = [1, 4, 16, 64]
    draw(d_ks, {"raw": [1.0, 2.0, 4.0, 8.0], "scaled": [1.0, 1.0, 1.0, 1.0]},
         ax=fig.add_subplot(), current=16, ylabel="spread")


@case("variance.draw_dartboard", figsize=(5.0, 5.0))
def _(fig, draw):
    throws = np.random.default_rng(8).standard_normal((40, 2))
    draw(throws, ax=fig.add_subplot(), title="40 darts")


@case("variance.draw_dk_panels", figsize=(11.0, 7.0), layout=None)
def _(fig, draw):
    draw(16, fig=fig)


@case("variance.draw_score_histogram")
def _(fig, draw):
    draw(np.random.default_rng(9).standard_normal(500), ax=fig.add_subplot(), limit=4.0)


@case("vectors.draw_embedding_table", figsize=(6.0, 3.0))
def _(fig, draw):
    draw(["the", "cat", "sat"], np.array([[0.2, -1.1, 0.7], [1.5, 0.3, -0.4], [-0.8, 0.9, 1.2]]),
         ax=fig.add_subplot())


@case("vectors.draw_vector", figsize=(5.0, 5.0))
def _(fig, draw):
    ax = fig.add_subplot()
    draw(np.array([2.0, 1.0]), ax=ax, label="q")
    ax.set_xlim(-1, 3)
    ax.set_ylim(-1, 3)


@case("vectors.draw_vector_scene", figsize=(5.0, 5.0))
def _(fig, draw):
    draw(np.array([3.0, 1.0]), ax=fig.add_subplot())


# --- the tests ---------------------------------------------------------------------------------

def public_plot_functions():
    """"module.draw_x" for every draw_* function in a course_lib.plots module's __all__."""
    names = []
    for info in pkgutil.iter_modules(course_lib.plots.__path__):
        module = importlib.import_module(f"course_lib.plots.{info.name}")
        names += [f"{info.name}.{n}" for n in getattr(module, "__all__", ())
                  if n.startswith("draw_")]
    return sorted(names)


def test_every_plot_function_has_a_case():
    functions = public_plot_functions()
    assert functions, "no draw_* functions found in course_lib.plots"
    covered = {name.split("+")[0] for name in CASES}
    missing, unknown = sorted(set(functions) - covered), sorted(covered - set(functions))
    assert not missing, f"plot functions without a figure case: {missing}"
    assert not unknown, f"figure cases of no public function: {unknown}"


def test_every_case_has_a_baseline():
    wanted = {f"test_figure_{name}.png" for name in CASES}  # pytest-mpl's name for the case
    found = {p.name for p in BASELINE.glob("*.png")}
    assert not wanted - found, f"no baseline for {sorted(wanted - found)}: run make baselines"
    assert not found - wanted, f"baselines of no case: {sorted(found - wanted)}"


def test_baselines_belong_to_the_locks_newest_matplotlib():
    versions = lock_matplotlib_versions()
    assert versions, "requirements-lock.txt pins no matplotlib"
    assert baseline_version() == max(versions, key=_release), (
        "the baselines were made with another matplotlib than the lock's newest: make baselines")


def figure_comparison_ready(config):
    """None where the images are compared here, else the one reason line why not."""
    mismatch = version_mismatch()
    if mismatch:
        return mismatch
    if not (config.getoption("--mpl", default=False)
            or config.getoption("--mpl-generate-path", default=None)):
        return "pytest-mpl's --mpl is off (pyproject.toml's addopts turn it on)"
    return None


@pytest.fixture
def comparison_ready(request):
    reason = figure_comparison_ready(request.config)
    # another matplotlib draws other pixels: the one skip CI allows here
    if reason and ON_CI and version_mismatch() is None:
        pytest.fail(f"CI=true: the figures must be compared, but {reason}", pytrace=False)
    if reason:
        pytest.skip(reason)


@pytest.mark.usefixtures("comparison_ready")
@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.mpl_image_compare(style=course_rc(), tolerance=TOLERANCE, deterministic=True,
                               savefig_kwargs={"dpi": DPI})
def test_figure(name):
    draw, figsize, layout = CASES[name]
    fig = plt.figure(figsize=figsize, layout=layout)  # pytest-mpl saves, compares, closes
    draw(fig, plot_function(name))
    return fig


def test_a_stale_notebook_figure_is_named():
    """The check conftest.py runs on every notebook figure nbval has re-drawn."""
    from figure_check import stale_figures

    first, second = (BASELINE / f"test_figure_{name}.png" for name in
                     ("softmax.draw_weights", "gradients.draw_row_bars"))
    encoded = {p: base64.b64encode(p.read_bytes()).decode() for p in (first, second)}

    def outputs(*paths):
        return [{"output_type": "display_data", "data": {"image/png": encoded[p]}}
                for p in paths]

    assert stale_figures(outputs(first, second), outputs(first, second)) == []
    assert stale_figures([], []) == []
    problems = stale_figures(outputs(first, second), outputs(first, first))
    assert len(problems) == 1 and "figure 2 " in problems[0]  # the stale one, by its number
    (counts,) = stale_figures(outputs(first), outputs(first, second))
    assert re.findall(r"\d+", counts) == ["1", "2"]  # stored, then fresh
