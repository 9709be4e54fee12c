"""Extra self-test cards of notebooks 14–16 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    # 14 · Tiled attention and the online softmax
    Card("How big is one score grid at $n = m = 32768$ in float32, and why is the grid, not "
         "the arithmetic, the memory problem?",
         "$32768^2 \\times 4$ bytes $= 2^{32}$ bytes = 4 GiB, per head and per sequence. The "
         "grid grows with $n \\cdot m$, while $Q$, $K$, $V$ and the output grow only with "
         "$n \\cdot d$ (8 MiB each here).", 14, computes=True),
    Card("What does the online softmax keep for each query row between blocks of keys?",
         "The running max $M$ (the largest score seen so far), the running sum "
         "$l = \\sum_j e^{s_j - M}$ over the keys seen so far, and the running output "
         "$\\mathbf{o} = \\sum_j e^{s_j - M}\\,\\mathbf{v}_j$.", 14),
    Card("A new block raises the max from $M$ to $M'$. What happens to the running sum and "
         "the running output?",
         "Both are multiplied by $e^{M - M'} \\le 1$, which turns every old term "
         "$e^{s - M}$ into $e^{s - M'}$; then the new block's terms $e^{s - M'}$ (times "
         "$\\mathbf{v}_j$ for the output) are added.", 14),
    Card("The running max is $M = 1$ and the running sum $l = 2$. The next block holds one "
         "score, 3. What are $M'$ and $l'$?",
         "$M' = \\max(1, 3) = 3$ and $l' = 2 \\cdot e^{1 - 3} + e^{3 - 3} = 2e^{-2} + 1 "
         "\\approx 1.271$.", 14, computes=True),
    Card("With blocks of 512 keys, how many blocks cover a row of $m = 1300$ keys, and how "
         "many keys are in the last one?",
         "Three: keys 0–511, 512–1023 and 1024–1299; the last block holds "
         "$1300 - 1024 = 276$ keys (`range(0, 1300, 512)` gives the starts 0, 512, 1024).",
         14, computes=True),
    Card("Is tiled attention an approximation?",
         "No: after the last block, $\\mathbf{o} / l$ is exactly the row of "
         "$\\operatorname{softmax}(S)\\,V$; only the order of the float additions differs, "
         "so results agree to rounding.", 14),
    # 15 · On the GPU
    Card("What changes when you pass CuPy arrays instead of NumPy arrays?",
         "Only where the numbers live and which library computes: the same course_lib calls "
         "return CuPy arrays on the GPU. Printing and plotting need `cl.to_numpy` first.", 15),
    Card("Why is the GPU slower than NumPy for tiny inputs?",
         "Each operation costs a fixed launch (and synchronisation) overhead of "
         "microseconds; the GPU only wins once there are millions of numbers to work on at "
         "once.", 15),
    Card("Does a GPU remove the need for tiled attention?",
         "No: its memory is also limited (a 4 GiB grid per head and sequence adds up fast), "
         "and moving the grid in and out of memory costs time; fast kernels tile for both "
         "reasons.", 15),
    Card("The plain formula takes 4 ms at $n = m = 1024$ and its time grows like $n^2$. "
         "About how long at $n = m = 4096$?",
         "$n$ grows 4×, so the time grows $4^2 = 16$×: about $16 \\times 4 = 64$ ms.", 15,
         computes=True),
    Card("How many MiB does one float16 score grid take at $n = m = 4096$?",
         "$4096 \\times 4096 \\times 2$ bytes $= 2^{25}$ bytes $= 2^{25} / 2^{20}$ MiB "
         "= 32 MiB.", 15, computes=True),
)
