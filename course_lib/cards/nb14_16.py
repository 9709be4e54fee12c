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
    Card("A new block raises the max from $M$ to $M'$. What happens to the running sum and "
         "the running output?",
         "Both are multiplied by $e^{M - M'} \\le 1$, which turns every old term "
         "$e^{s - M}$ into $e^{s - M'}$; then the new block's terms $e^{s - M'}$ (times "
         "$\\mathbf{v}_j$ for the output) are added.", 14),
    Card("The running max is $M = 1$ and the running sum $l = 2$. The next block holds one "
         "score, 3. What are $M'$ and $l'$?",
         "$M' = \\max(1, 3) = 3$ and $l' = 2 \\cdot e^{1 - 3} + e^{3 - 3} = 2e^{-2} + 1 "
         "\\approx 1.271$.", 14, computes=True),
    Card("At $n = m = 4096$ with tiles of $512 \\times 512$, what share of the tiles does a "
         "causal mask let tiled attention skip?",
         "8 tiles a side, 64 in all; the $8 \\cdot 7 / 2 = 28$ above the diagonal hold only "
         "blocked scores: $28 / 64 \\approx 44\\%$ skipped.", 14, computes=True),
    Card("What one number per query row does the forward pass keep for the tiled backward "
         "pass, and how does a weight come back from it?",
         "The logsumexp $\\mathrm{LSE}_i = M_i + \\ln l_i = \\ln \\sum_j e^{S_{ij}}$; then "
         "$A_{ij} = e^{S_{ij} - \\mathrm{LSE}_i}$, without the max or the sum of the row.", 14),
    Card("You add 1 to a bfloat16 running total 300 times, starting from 0. What is the "
         "total, and what do kernels do about it?",
         "256: above 256, neighbouring bfloat16 numbers are 2 apart (7 mantissa bits), so "
         "$256 + 1$ rounds back to 256. Kernels keep the running max, the sum and the output "
         "accumulator in float32.", 14, computes=True),
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
    Card("In the course's CUDA kernel, what does one thread block compute, and where do its "
         "running max and running sum live?",
         "One query row: its threads take one key each per tile of keys, find the tile's "
         "max together in shared memory, and keep the running max, sum and output slots as "
         "float32 numbers in registers; the scores never go back to the GPU's main memory.",
         15),
    Card("How many MiB does one float16 score grid take at $n = m = 4096$?",
         "$4096 \\times 4096 \\times 2$ bytes $= 2^{25}$ bytes $= 2^{25} / 2^{20}$ MiB "
         "= 32 MiB.", 15, computes=True),
)
