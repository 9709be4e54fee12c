"""Dashboard of notebook 15: will the score grids fit in a GPU's memory? Sliders for the
sequence length, the number of grids (heads × batch elements), the number type and the
GPU's memory; bars for the plain formula and for tiled attention."""

import ipywidgets as widgets

from ..plots.gpu import draw_memory_fit, update_memory_fit
from ..plots.style import course_style, detached_figure
from ..tiled_memory import DEFAULT_BLOCK, attention_memory
from .base import Dashboard, int_slider

__all__ = ["fit_callback", "fit_dashboard", "fit_numbers"]

D_HEAD = 64  # d_k = d_v of one head
TYPES = (("float16 (2 bytes)", 2), ("float32 (4 bytes)", 4), ("float64 (8 bytes)", 8))


def fit_numbers(log2_n, grids, bytes_per_number):
    """(grid GiB, tiled GiB) for n = m = 2^log2_n, ``grids`` heads × batch elements, d = 64,
    with the GPU's default block of tiled_attention."""
    n = 2**log2_n
    grid, tiled = attention_memory(n, n, D_HEAD, D_HEAD, block_size=DEFAULT_BLOCK["cupy"],
                                   itemsize=bytes_per_number, batch=grids)
    return grid / 2**30, tiled / 2**30


def fit_callback(artists, log2_n, grids, bytes_per_number, gpu_gib):
    """Move the bars and the GPU line; return the verdict as text."""
    grid, tiled = fit_numbers(log2_n, grids, bytes_per_number)
    update_memory_fit(artists, grid, tiled, gpu_gib)
    verdict = "fits" if grid <= gpu_gib else "does NOT fit"
    return (f"n = m = {2**log2_n}, {grids} grid(s) of {8 * bytes_per_number}-bit scores: the "
            f"plain formula needs {grid:.2f} GiB and {verdict} in {gpu_gib} GiB; tiled "
            f"attention needs {tiled:.3f} GiB")


def fit_dashboard(log2_n=15, grids=8, bytes_per_number=4, gpu_gib=80):
    """Sliders for n (as a power of 2), the number of grids, the number type and the GPU."""
    with course_style():
        fig = detached_figure((8.0, 3.0))
        ax = fig.add_subplot()
        artists = draw_memory_fit(*fit_numbers(log2_n, grids, bytes_per_number), gpu_gib, ax=ax)
        fig.tight_layout()
    controls = {
        "log2_n": int_slider("log₂ n: sequence length n = m = 2^this", log2_n, 10, 18),
        "grids": int_slider("grids: heads × batch elements", grids, 1, 64),
        "bytes_per_number": widgets.Dropdown(options=TYPES, value=bytes_per_number,
                                             description="type: bytes per number",
                                             style={"description_width": "14em"}),
        "gpu_gib": int_slider("GPU: its memory in GiB", gpu_gib, 8, 144, 8),
    }

    def callback(log2_n, grids, bytes_per_number, gpu_gib):
        return fit_callback(artists, log2_n, grids, bytes_per_number, gpu_gib)

    return Dashboard(fig, controls, callback,
                     description="[Memory dashboard: sliders for n, grids, number type and GPU "
                     "memory; run the notebook to use it.]",
                     artists=artists)
