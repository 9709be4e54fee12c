"""Attention from Zero: the math of scaled dot-product attention, softmax(QKᵀ/√d_k) V.

``import course_lib`` loads only this math (and NumPy). Pictures, dashboards, exercises and
quiz cards are submodules a notebook imports explicitly:
``course_lib.plots``, ``course_lib.widgets``, ``course_lib.exercises``, ``course_lib.quiz``.
Faster versions of the same numbers (blocks, threads, in-place buffers) are the opt-in
``course_lib.fast``.
"""

from .attention import scaled_dot_product_attention
from .backend import (
    asarray,
    current_backend,
    example_rng,
    get_array_module,
    gpu_status,
    to_numpy,
    use_backend,
)
from .dot import cosine_similarity, dot
from .gradients import attention_gradients, score_gradients, softmax_backward
from .masks import additive_mask, causal_mask, padding_mask
from .matrices import score_grid
from .multihead import multi_head_attention
from .scaling import default_scale, sample_dot_products, scaled_scores
from .serving import attention_with_kv_cache
from .shadows import shadow, shadow_length
from .softmax import jacobian_norm, softmax, softmax_jacobian, softmax_naive
from .tiled import tiled_attention
from .tiled_backward import tiled_attention_gradients
from .vectors import norm

__all__ = [
    "additive_mask",
    "asarray",
    "attention_gradients",
    "attention_with_kv_cache",
    "causal_mask",
    "cosine_similarity",
    "current_backend",
    "default_scale",
    "dot",
    "example_rng",
    "get_array_module",
    "gpu_status",
    "jacobian_norm",
    "multi_head_attention",
    "norm",
    "padding_mask",
    "sample_dot_products",
    "scaled_dot_product_attention",
    "scaled_scores",
    "score_gradients",
    "score_grid",
    "shadow",
    "shadow_length",
    "softmax",
    "softmax_backward",
    "softmax_jacobian",
    "softmax_naive",
    "tiled_attention",
    "tiled_attention_gradients",
    "to_numpy",
    "use_backend",
]
