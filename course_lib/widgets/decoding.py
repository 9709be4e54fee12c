"""Dashboards of notebook 16: step through decoding with a KV cache, and ask whether a
model's cache fits in memory for multi-head, grouped-query and multi-query attention."""

import numpy as np

from .. import scaled_dot_product_attention
from ..decoding import decode_steps
from ..kv_memory import LLAMA_2_70B, cache_layouts, kv_cache_bytes, tokens_that_fit
from ..plots.decoding import (
    draw_cache_memory,
    draw_cache_step,
    update_cache_memory,
    update_cache_step,
)
from ..plots.style import course_style, detached_figure
from ..text import short
from .base import Dashboard, int_slider

__all__ = ["DECODE_TOKENS", "cache_callback", "cache_dashboard", "decode_example",
           "fit_callback", "fit_dashboard", "fit_sizes"]

DECODE_TOKENS = ("the", "cat", "sat", "on", "the", "mat")
GIB = 2**30


def decode_example(seed=16, d_k=4, d_v=3):
    """The dashboard's fixed query, key and value rows: one per token of DECODE_TOKENS."""
    rng = np.random.default_rng(seed)
    n = len(DECODE_TOKENS)
    return (rng.standard_normal((n, d_k)) * 1.5, rng.standard_normal((n, d_k)) * 1.5,
            rng.standard_normal((n, d_v)))


def cache_callback(artists, steps, full, step):
    """Show the cache after step ``step``; the readout compares the step's output row with
    full causal attention's row."""
    update_cache_step(artists, step)
    this = steps[step]
    gap = float(np.abs(this.output[0] - full[step]).max())
    grid = (step + 1) * (step + 2) // 2  # rows 0 … t of the causal grid
    return (f"step {step} ('{DECODE_TOKENS[step]}'): cache holds {this.cache.key.shape[0]} "
            f"key and value rows · scores computed now: {step + 1} (one row), recomputing "
            f"all rows would take {grid} · output row {step} vs full causal attention: largest "
            f"difference {gap:.1e}")


def cache_dashboard(step=3):
    """A slider over the decoding step: the key cache, the weights and the value cache grow one
    row per step, and only the framed row of scores is computed at that step."""
    query, key, value = decode_example()
    steps = list(decode_steps(query, key, value))  # prompt of 1 token, then one per step
    full = scaled_dot_product_attention(query, key, value, is_causal=True)  # (n, d_v)
    with course_style():
        fig = detached_figure((11.0, 4.0))
        axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": [4, 6, 3]})
        artists = draw_cache_step(query, key, value, step, axes, tokens=DECODE_TOKENS)
        fig.tight_layout()
    controls = {"step": int_slider("step t: tokens written so far − 1", step, 0,
                                   len(DECODE_TOKENS) - 1)}
    return Dashboard(fig, controls, lambda step: cache_callback(artists, steps, full, step),
                     description="[KV cache dashboard: a step slider grows the cache one row at "
                     "a time. Run the notebook to use it.]", artists=artists)


def fit_sizes(shape, tokens, batch, bytes_per_number=2):
    """GiB of cache per head layout for ``tokens`` tokens of ``batch`` sequences."""
    return {name: kv_cache_bytes(tokens, shape.num_layers, heads, shape.head_dim,
                                 bytes_per_number, batch) / GIB
            for name, heads in cache_layouts(shape).items()}


def fit_callback(artists, shape, tokens, batch, budget_gib):
    """New bars for these sliders; the readout says what fits and how many tokens would."""
    sizes = fit_sizes(shape, tokens, batch)
    update_cache_memory(artists, sizes, budget_gib)
    parts = []
    for name, heads in cache_layouts(shape).items():
        per_token = kv_cache_bytes(1, shape.num_layers, heads, shape.head_dim) * batch
        most = tokens_that_fit(budget_gib * GIB, per_token)
        verdict = "fits" if sizes[name] <= budget_gib else "does not fit"
        parts.append(f"{name}: {short(sizes[name])} GiB, {verdict} (room for {most:,} tokens)")
    return f"{tokens:,} tokens × batch {batch}, 16-bit: " + " · ".join(parts)


def fit_dashboard(shape=LLAMA_2_70B, tokens=4096, batch=8, budget_gib=40):
    """Sliders for the context length, the batch and the memory left for the cache: bars of
    the cache's size for multi-head, grouped-query and multi-query attention."""
    with course_style():
        fig = detached_figure((8.0, 2.8))
        ax = fig.subplots()
        artists = draw_cache_memory(fit_sizes(shape, tokens, batch), budget_gib, ax=ax)
        ax.set_title(f"KV cache of {shape.name} ({shape.num_layers} layers, "
                     f"{shape.num_heads} query heads, d_k = {shape.head_dim})")
        fig.tight_layout()
    controls = {
        "tokens": int_slider("tokens: per sequence (context length)", tokens, 1024, 32768, 1024),
        "batch": int_slider("batch: sequences decoded at once", batch, 1, 64),
        "budget_gib": int_slider("budget: memory left for the cache (GiB)", budget_gib, 10,
                                 160, 10),
    }
    return Dashboard(fig, controls,
                     lambda tokens, batch, budget_gib: fit_callback(artists, shape, tokens,
                                                                    batch, budget_gib),
                     description="[Will-it-fit dashboard: sliders for context, batch and memory "
                     "size the cache. Run the notebook to use it.]", artists=artists)
