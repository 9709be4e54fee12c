"""How long a learner waits after moving a slider, for each dashboard.

For each dashboard: the median over 50 slider moves of the whole path in the kernel (the
observer, the callback asking the math for numbers, the in-place redraw of the moving
artists, the PNG encoding and handing the bytes to the Image widget), next to a full re-plot
of the same figure (a new figure, everything drawn again, saved as PNG), which is what a
plain ``interact`` + ``plt.show()`` dashboard does at every move. Target: under 30 ms median
per move on a 2-core machine, and well under the full re-plot.

Run: ``python benchmarks/bench_dashboards.py`` (or ``make bench``).
"""

import statistics
import time

import matplotlib

matplotlib.use("Agg")

MOVES = 50
TARGET_MS = 30.0


def dashboards():
    """(name, factory) for every dashboard of the course, in notebook order."""
    from course_lib.widgets.attention import attention_dashboard
    from course_lib.widgets.dot_product import dot_dashboard
    from course_lib.widgets.gpu import fit_dashboard
    from course_lib.widgets.gradients import gradient_dashboard
    from course_lib.widgets.masks import mask_dashboard
    from course_lib.widgets.matrices import product_dashboard, shapes_dashboard
    from course_lib.widgets.multihead import heads_dashboard
    from course_lib.widgets.norm import norm_dashboard
    from course_lib.widgets.softmax import saturation_dashboard
    from course_lib.widgets.summation import summation_dashboard
    from course_lib.widgets.tiled import tiled_dashboard
    from course_lib.widgets.variance import dk_dashboard
    from course_lib.widgets.vectors import vector_dashboard

    return [
        ("01 vector", vector_dashboard),
        ("02 norm", norm_dashboard),
        ("03 summation", summation_dashboard),
        ("04 dot product", dot_dashboard),
        ("05 shapes", shapes_dashboard),
        ("06 product", product_dashboard),
        ("07 saturation", saturation_dashboard),
        ("08 d_k spread", dk_dashboard),
        ("09 attention", attention_dashboard),
        ("11 masks", mask_dashboard),
        ("12 heads", heads_dashboard),
        ("13 gradients", gradient_dashboard),
        ("14 tiled", tiled_dashboard),
        ("15 gpu fit", fit_dashboard),
    ]


def _mover(control):
    """A function i -> None that sets the control to a new value at every call."""
    if hasattr(control, "index"):  # dropdowns and selection sliders: step through the options
        return lambda i: setattr(control, "index", (control.index + 1) % len(control.options))
    if isinstance(control.value, bool):  # toggle buttons
        return lambda i: setattr(control, "value", not control.value)
    span = control.max - control.min
    steps = max(2, min(16, round(span / control.step)))
    values = [control.min + span * k / steps for k in range(steps + 1)]
    if isinstance(control.value, int):
        values = sorted({round(v) for v in values})
    return lambda i: setattr(control, "value", values[(i + 1) % len(values)])


def _median_ms(action, repeats):
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        action(i)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def measure(names=None):
    """Rows of (dashboard, median ms per move, median ms per full re-plot), for the
    dashboards ``names`` (default: every one).

    The main (first) control moves; the full re-plot draws the same figure from scratch
    (every artist, not only the moving ones) and encodes it, as a plain re-plotting dashboard
    does at each move.
    """
    from course_lib.plots.fast_render import figure_png

    rows = []
    for name, factory in dashboards():
        if names is not None and name not in names:
            continue
        dash = factory()
        move = _mover(next(iter(dash.controls.values())))
        move_ms = _median_ms(move, MOVES)
        replot_ms = _median_ms(lambda _i, fig=dash.figure: figure_png(fig), 15)
        rows.append((name, move_ms, replot_ms))
    return rows


def main():
    rows = measure()
    print(f"Dashboard response: median over {MOVES} slider moves (callback + math + redraw + "
          "PNG encode), beside a full re-plot")
    print(f"{'dashboard':<16} {'per move':>10} {'full re-plot':>13} {'speed-up':>9}  target")
    for name, move_ms, replot_ms in rows:
        verdict = "ok" if move_ms < TARGET_MS else f"OVER {TARGET_MS:.0f} ms"
        print(f"{name:<16} {move_ms:>7.1f} ms {replot_ms:>10.1f} ms {replot_ms / move_ms:>8.1f}×"
              f"  {verdict}")
    # targets for run_all: (what, measured, limit); the browser's own target is bench_browser's
    return [(f"dashboard {name}: the kernel's part of a move (median, ms)", move_ms, TARGET_MS)
            for name, move_ms, _ in rows]


if __name__ == "__main__":
    main()
