"""Notebook 15's exercises (course_lib/exercises/gpu.py): wrong answers written the way beginners
write them, each named by its own slip or relation, and right answers in other styles accepted."""

from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate
from course_lib.fast.gpu_kernel import largest_key_block, shared_memory_bytes

# --- the shared memory of one block, by hand: d_k = 128, key_block = 64 (33792 bytes) --------


def test_shared_memory_by_hand_slips():
    assert_named("shared memory by hand", {
        "the key rows' padding left out": [4 * (128 + 64 * 128 + 64), 4 * (128 + 64 * 129)],
        "the query row left out": [4 * (64 * 129 + 64)],
        "only the key rows": [64 * 128 * 4, 4 * 64 * 129],
        "numbers, not bytes": [128 + 64 * 129 + 64, "8448"],
        "8 bytes a float32": [8 * (128 + 64 * 129 + 64)],
        "2 bytes a float32": [2 * (128 + 64 * 129 + 64)],
        "KiB, not bytes": [33, "33.0", 33.792],
    })


def test_shared_memory_by_hand_is_the_kernels_count():
    assert evaluate("shared memory by hand", shared_memory_bytes(128, 64)).passed
    assert_passes("shared memory by hand", ["33792", 33792.0, "33 792".replace(" ", "")])


# --- largest_key_block(d_k, threads, limit) --------------------------------------------------


def nbytes(d_k, keys):
    return 4 * (d_k + keys * (d_k + 1) + keys)


def halving_strict(d_k, threads, limit):
    block = threads
    while block >= 1 and nbytes(d_k, block) >= limit:
        block = block // 2
    return block


def doubling(d_k, threads, limit):
    block = 1
    while block <= threads and nbytes(d_k, block) <= limit:
        block = block * 2
    return block


def halved_after(d_k, threads, limit):
    block = threads
    while block >= 1:
        block = block // 2
        if nbytes(d_k, block * 2) <= limit:
            return block
    return 0


def bytes_back(d_k, threads, limit):
    block = threads
    while block > 1 and nbytes(d_k, block) > limit:
        block //= 2
    return nbytes(d_k, block)


def no_padding(d_k, threads, limit):
    block = threads
    while block >= 1 and 4 * (d_k + block * d_k + block) > limit:
        block //= 2
    return block


def no_bytes(d_k, threads, limit):
    block = threads
    while block >= 1 and d_k + block * (d_k + 1) + block > limit:
        block //= 2
    return block


def stops_at_one(d_k, threads, limit):
    block = threads
    while block > 1 and nbytes(d_k, block) > limit:
        block //= 2
    return block


def any_size(d_k, threads, limit):
    keys = threads
    while keys > 0 and nbytes(d_k, keys) > limit:
        keys -= 1
    return keys


def from_half(d_k, threads, limit):
    block = threads // 2
    while block >= 1 and nbytes(d_k, block) > limit:
        block //= 2
    return block


def limit_in_kib(d_k, threads, limit):
    block = threads
    while block >= 1 and nbytes(d_k, block) > limit * 1024:
        block //= 2
    return block


def with_range(d_k, threads, limit):  # right, another style: powers of two from the top
    for p in range(10, -1, -1):
        if 2**p <= threads and nbytes(d_k, 2**p) <= limit:
            return 2**p
    return 0


def test_largest_key_block_slips():
    assert_named("largest key block", {
        "a block that fits exactly refused": [halving_strict],
        "doubled one step too far": [doubling, doubled_past_the_fit],
        "stopped after one halving": [returns_in_the_loop], "half the answer": [halved_after],
        "returned the bytes": [bytes_back], "the key rows' padding left out": [no_padding],
        "numbers, not bytes": [no_bytes],
        "1 when nothing fits": [stops_at_one],
        "not a power of two": [any_size], "started at threads / 2": [from_half],
        "the input given back": [limit_in_kib],
        "d_k and key_block swapped": [sizes_swapped],
    })


def doubled_past_the_fit(d_k, threads, limit):  # returns the first block that does not fit
    block = 1
    if nbytes(d_k, 1) > limit:
        return 0
    while nbytes(d_k, block) <= limit and block < threads:
        block *= 2
    return block


def returns_in_the_loop(d_k, threads, limit):
    block = threads
    while block >= 1 and nbytes(d_k, block) > limit:
        return block // 2
    return block


def sizes_swapped(d_k, threads, limit):  # d_k rows of key_block + 1 numbers
    block = threads
    while block >= 1 and 4 * (d_k + d_k * (block + 1) + block) > limit:
        block //= 2
    return block


def test_largest_key_block_right_answers_in_other_styles_pass():
    assert_passes("largest key block", [with_range, largest_key_block])


# --- the barriers one query row waits at, by hand: m = 1000, key_block = 128 (89) -------------


def test_barriers_by_hand_slips():
    assert_named("barriers by hand", {
        "(a) left out": [88], "tiles rounded down": [78],
        "a barrier missing from each tile": [81, "81"],
        "a barrier too many in each tile": [97], "tiles as a fraction": [87, 86.94],
        "the halving rounds once a row": [40], "no halving rounds": [33], "one tile": [12],
        "(d) once a tile": [41],
    })


def test_barriers_by_hand_counts_the_kernels_barriers():
    from course_lib.fast.gpu_kernel import KERNEL_SOURCE

    loop = KERNEL_SOURCE.split("for (int j0")[1].split("if (t < d_v) {  // a row")[0]
    assert loop.count("__syncthreads()") == 5  # (b), (c), (d) in the halving loop, (e), (f)
    assert "for (int half = key_block / 2; half > 0; half /= 2)" in loop
    assert evaluate("barriers by hand", 1 + 8 * (4 + 7)).passed
