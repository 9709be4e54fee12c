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


def _dashboards():
    from course_lib.widgets.dot_product import dot_dashboard, dot_figure
    from course_lib.widgets.norm import norm_dashboard, norm_figure
    from course_lib.widgets.summation import summation_dashboard, summation_figure
    from course_lib.widgets.vectors import vector_dashboard, vector_figure

    # (name, dashboard factory, figure builder, slider to move, the values it visits in turn)
    return [
        ("01 vector", vector_dashboard, vector_figure, "q1", [-4.0 + 0.5 * i for i in range(17)]),
        ("02 norm", norm_dashboard, norm_figure, "q2", [-4.0 + 0.5 * i for i in range(17)]),
        ("03 summation", summation_dashboard, summation_figure, "count", list(range(1, 9))),
        ("04 dot product", dot_dashboard, dot_figure, "angle", [5.0 * i for i in range(37)]),
    ]


def _median_ms(action, repeats):
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        action(i)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _full_replot(build_figure):
    """One full re-plot: build the figure from nothing and encode it, as a plain re-plotting
    dashboard does at each move."""
    from course_lib.plots.render import figure_png

    figure, _artists = build_figure()
    figure_png(figure)


def measure():
    """Rows of (dashboard, median ms per move, median ms per full re-plot)."""
    rows = []
    for name, factory, build_figure, control, values in _dashboards():
        dash = factory()
        slider = dash.controls[control]

        def move(i, slider=slider, values=values):
            slider.value = values[(i + 1) % len(values)]  # always a new value

        move_ms = _median_ms(move, MOVES)
        replot_ms = _median_ms(lambda _i, build=build_figure: _full_replot(build), 15)
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
    return rows


if __name__ == "__main__":
    main()
