"""How big tiled attention's blocks are, and how much memory it saves (notebook 14)."""

import numpy as np

from .validation import check_count

__all__ = ["DEFAULT_BLOCK", "attention_memory", "check_block_size", "tile_plan"]

DEFAULT_BLOCK = {"numpy": 512, "cupy": 4096}  # a 512×512 float32 block is 1 MiB: fits in cache


def check_block_size(block_size, xp=np):
    """``block_size``: None (the default for the array library), one int, or (block_q, block_k).

    >>> check_block_size(None), check_block_size(64), check_block_size((128, 96))
    ((512, 512), (64, 64), (128, 96))
    """
    if block_size is None:
        size = DEFAULT_BLOCK["numpy" if xp is np else "cupy"]
        return size, size
    pair = block_size if isinstance(block_size, (tuple, list)) else (block_size, block_size)
    if len(pair) != 2:
        raise ValueError(f"block_size must be one int or a pair (block_q, block_k); got "
                         f"{block_size!r}")
    return tuple(check_count(size, "block_size (rows per block)") for size in pair)


def tile_plan(block_size, mask, query, key, xp=np):
    """The block sizes and the mask as an (…, n, m) view a tile can be cut from (or None).

    >>> block_q, block_k, mask = tile_plan(2, np.ones((1, 3), dtype=bool), np.ones((4, 2)),
    ...                                    np.ones((3, 2)))
    >>> (block_q, block_k), mask.shape
    ((2, 2), (4, 3))
    """
    block_q, block_k = check_block_size(block_size, xp)
    if mask is not None:
        n, m = query.shape[-2], key.shape[-2]
        mask = xp.broadcast_to(mask, np.broadcast_shapes(mask.shape, (n, m)))  # a view
    return block_q, block_k, mask


def attention_memory(n, m, d_k, d_v, block_size=512, itemsize=4, batch=1, threads=None):
    """Bytes of working memory: (the plain formula's score grids, tiled attention's extra).

    The plain formula holds n·m scores per batch element (per head). Tiled attention holds
    block_q × block_k score blocks, and per batch element the scaled queries (n·d_k), the
    output (n·d_v) and two running numbers per query row (2n). :func:`course_lib.tiled.
    tiled_attention` works on every batch element at once, so it holds one block per batch
    element (``threads=None``, the default); the fast layer's ``threads`` each hold one block
    of one batch element at a time (``threads`` blocks, whatever ``batch`` is). ``itemsize``
    is the bytes per number: 2 for float16, 4 for float32, 8 for float64.

    >>> grid, tiled = attention_memory(32768, 32768, 64, 64)
    >>> grid / 2**30, round(tiled / 2**20, 2)   # GiB, MiB
    (4.0, 17.25)
    >>> round(attention_memory(32768, 32768, 64, 64, batch=2)[1] / 2**20, 2)  # a block each
    34.5
    >>> round(attention_memory(32768, 32768, 64, 64, threads=2)[1] / 2**20, 2)  # one more block
    18.25
    """
    sizes = {"n": n, "m": m, "d_k": d_k, "d_v": d_v, "itemsize": itemsize, "batch": batch,
             "threads": batch if threads is None else threads}
    n, m, d_k, d_v, itemsize, batch, blocks = (check_count(v, k) for k, v in sizes.items())
    block_q, block_k = check_block_size(block_size)
    grid = batch * n * m
    tiled = blocks * min(block_q, n) * min(block_k, m) + batch * n * (d_k + d_v + 2)
    return grid * itemsize, tiled * itemsize
