"""The opt-in fast layer: the same numbers as the plain formulas, sooner, on every core.

``import course_lib`` does not load this package; import it by name::

    from course_lib import fast
    output = fast.attention(query, key, value)           # = scaled_dot_product_attention
    output = fast.tiled_attention(query, key, value)     # = course_lib.tiled_attention
    grads = fast.tiled_attention_gradients(query, key, value, grad_output)  # the same, backward

It sits above the math (it imports the math modules, never the reverse) and holds every speed
trick: blocks of query rows that stay in cache, buffers reused in place, threads over blocks
with BLAS held to one thread per product (``threadpoolctl``, restored after each call). The
tests compare it with the plain functions; ``make bench`` measures it.
"""

from .blocked import attention
from .tiled import tiled_attention
from .tiled_backward import tiled_attention_gradients

__all__ = ["attention", "tiled_attention", "tiled_attention_gradients"]
