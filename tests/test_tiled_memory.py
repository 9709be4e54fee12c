"""attention_memory and check_block_size (course_lib.tiled_memory)."""

import numpy as np
import pytest

from course_lib.tiled_memory import DEFAULT_BLOCK, attention_memory, check_block_size


def test_grid_and_tiled_counts_by_hand():
    # n = 4 queries, m = 6 keys, d_k = 2, d_v = 3, blocks of 2 × 4, float64 (8 bytes)
    grid, tiled = attention_memory(4, 6, 2, 3, block_size=(2, 4), itemsize=8)
    assert grid == 4 * 6 * 8
    assert tiled == (2 * 4 + 4 * (2 + 3 + 2)) * 8  # one block + Q scaled, output, max and sum


def test_threads_add_one_block_each_and_batch_multiplies_the_rest():
    one = attention_memory(1000, 1000, 8, 8, block_size=100)[1]
    three = attention_memory(1000, 1000, 8, 8, block_size=100, threads=3)[1]
    assert three - one == 2 * 100 * 100 * 4
    grid2, tiled2 = attention_memory(1000, 1000, 8, 8, block_size=100, batch=2, threads=1)
    assert grid2 == 2 * 1000 * 1000 * 4 and tiled2 == one + 1000 * (8 + 8 + 2) * 4


@pytest.mark.parametrize("batch", [1, 2, 16])
def test_plain_tiled_attention_holds_one_block_per_batch_element(batch):
    # tiled_attention tiles only the n and m axes: every batch element has its own block
    one = attention_memory(1000, 1000, 8, 8, block_size=100)[1]
    tiled = attention_memory(1000, 1000, 8, 8, block_size=100, batch=batch)[1]
    assert tiled == batch * one


def test_the_count_bounds_what_tiled_attention_allocates():
    import tracemalloc

    from course_lib import tiled_attention

    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((8, 256, 16), dtype=np.float32) for _ in range(3))
    counted = attention_memory(256, 256, 16, 16, block_size=64, batch=8)[1]
    tracemalloc.start()
    tiled_attention(q, k, v, block_size=64)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # at least one block per batch element is live at once, and a few copies at most
    assert counted <= peak <= 4 * counted


def test_a_block_larger_than_the_problem_counts_the_problem():
    assert attention_memory(3, 5, 1, 1, block_size=512, itemsize=1)[1] == 3 * 5 + 3 * 4


@pytest.mark.parametrize(("block", "pair"), [(None, (512, 512)), (7, (7, 7)), ((3, 9), (3, 9)),
                                             ([2, 5], (2, 5)), (np.int32(4), (4, 4))])
def test_block_sizes(block, pair):
    assert check_block_size(block) == pair


def test_the_gpu_default_is_larger():
    class NotNumpy:
        pass

    assert check_block_size(None, NotNumpy()) == (DEFAULT_BLOCK["cupy"],) * 2


@pytest.mark.parametrize(("bad", "error", "text"), [
    (0, ValueError, "positive integer"), ((4, -1), ValueError, "positive integer"),
    (2.5, TypeError, "positive integer"), ((1, 2, 3), ValueError, "pair"),
])
def test_bad_block_sizes_are_named(bad, error, text):
    with pytest.raises(error, match=text):
        check_block_size(bad)
    with pytest.raises(error, match="block_size"):
        attention_memory(8, 8, 2, 2, block_size=bad)


@pytest.mark.parametrize("name", ["n", "m", "d_k", "d_v", "itemsize", "batch", "threads"])
def test_every_size_must_be_a_positive_integer(name):
    sizes = {"n": 4, "m": 4, "d_k": 2, "d_v": 2, "itemsize": 4, "batch": 1, "threads": 1}
    sizes[name] = 0
    with pytest.raises(ValueError, match=f"{name} must be a positive integer; got 0"):
        attention_memory(**sizes)
