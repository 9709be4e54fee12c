"""The numbers one picture of the online softmax shows (notebook 14), all from the math:
one query's scores, the running max and sum after some key blocks, its weights so far and the
partial outputs walking toward the full attention output."""

import numpy as np

from .attention import scaled_dot_product_attention
from .backend import to_numpy
from .scaling import scaled_scores
from .softmax import softmax
from .tiled import online_softmax_steps
from .vectors import norm

__all__ = ["online_softmax_view"]


def online_softmax_view(query, key, value, block_size, query_index, blocks_seen):
    """One query's state after ``blocks_seen`` blocks of keys of the online softmax.

    Parameters
    ----------
    query : (n, d_k); key : (m, d_k); value : (m, 2) (two slots, so outputs are points).
    block_size : keys per block. query_index : which query row to show (0-based).
    blocks_seen : how many key blocks have been folded in (1 … number of blocks).

    Returns
    -------
    dict: ``scores`` (m,) of that query; ``step`` (its :class:`OnlineSoftmaxStep`);
    ``running_max``, ``running_sum``, ``rescale`` (floats, this query's); ``weights`` (m,) the
    softmax over the keys seen so far (0 for the others), which is e^(s − running max) /
    running sum; ``final_weights`` (m,); ``outputs`` (blocks_seen, 2) the partial outputs so
    far; ``final_output`` (2,); ``distance`` from the last partial output to the full one;
    ``values`` (m, 2); ``block_size``; ``blocks`` (how many blocks there are).

    >>> view = online_softmax_view([[0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0],
    ...                            [0.0, 1.0]], block_size=1, query_index=0, blocks_seen=2)
    >>> view["blocks"], round(view["distance"], 12), view["weights"].round(3).tolist()
    (2, 0.0, [0.33, 0.67])
    """
    steps = list(online_softmax_steps(query, key, value, block_size))
    if not 1 <= blocks_seen <= len(steps):
        raise ValueError(f"blocks_seen must be between 1 and {len(steps)}; got {blocks_seen}")
    step = steps[blocks_seen - 1]
    scores = to_numpy(scaled_scores(query, key))[query_index]  # (m,)
    weights = np.zeros_like(scores)
    weights[:step.stop] = to_numpy(softmax(scores[:step.stop]))  # the keys seen so far
    final = to_numpy(scaled_dot_product_attention(query, key, value))[query_index]  # (2,)
    outputs = np.array([to_numpy(s.output)[query_index] for s in steps[:blocks_seen]])
    return {
        "scores": scores,
        "step": step,
        "running_max": float(to_numpy(step.running_max)[query_index]),
        "running_sum": float(to_numpy(step.running_sum)[query_index]),
        "rescale": float(to_numpy(step.rescale)[query_index]),
        "weights": weights,
        "final_weights": to_numpy(softmax(scores)),
        "outputs": outputs,
        "final_output": final,
        "distance": float(norm(outputs[-1] - final)),
        "values": to_numpy(value),
        "block_size": int(block_size),
        "blocks": len(steps),
    }
