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
    Card("At $n = m = 3584$ with tiles of $512 \\times 512$, what share of the tiles does a "
         "causal mask let tiled attention skip?",
         "7 tiles a side, 49 in all; the $7 \\cdot 6 / 2 = 21$ above the diagonal hold only "
         "blocked scores: $21 / 49 \\approx 43\\%$ skipped.", 14, computes=True),
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
    Card("How many bytes of shared memory does one block of the course's kernel use at "
         "$d_k = 64$ with a key block of 128? Does it fit in the 48 KiB a block gets without "
         "asking?",
         "$4 \\times (64 + 128 \\times 65 + 128) = 4 \\times 8512 = 34048$ bytes, 33.25 KiB: "
         "it fits (49152 bytes).", 15, computes=True),
    Card("In shared memory, 4-byte word $w$ sits in bank $w \\bmod 32$. Thread $t$ of a warp "
         "reads slot $c$ of key row $t$. Which bank does it hit when the rows are 64 numbers "
         "apart, and when they are 65 apart (the kernel's padding)?",
         "64 apart: bank $(64t + c) \\bmod 32 = c \\bmod 32$ for every $t$, so all 32 threads "
         "queue at one bank. 65 apart: bank $(t + c) \\bmod 32$, a different bank for each "
         "thread, one read for the warp.", 15, computes=True),
    Card("Why does the kernel launch a flat grid that strides over the batch · n query rows "
         "instead of a grid of (n, batch) blocks?",
         "A grid's y size stops at 65535: 1024 sequences of 64 heads need 65536. The x axis "
         "reaches $2^{31} - 1$, and a loop stepping by gridDim.x covers any number.", 15),
    Card("A padding mask of shape (B, 1, m) at $n = m = 32768$: how many bytes would it take "
         "as a dense float32 (B, n, m) grid per sequence, and as the kernel's key lengths?",
         "Dense: $32768^2 \\times 4 = 2^{32}$ bytes, 4 GiB per sequence, the very grid the "
         "kernel avoids. Key lengths: one int32 per sequence, 4 bytes.", 15, computes=True),
    Card("What does `__syncthreads()` guarantee, and what could go wrong without barrier (e), "
         "after the threads read the tile's maximum from `tile[0]`?",
         "Every thread has arrived, so what one wrote to shared memory is there for all. "
         "Without (e) a fast thread could overwrite `tile[0]` before a slow one read it.", 15),
    Card("$S = QK^\\top$ in float16 does about $d_k$ FLOPs per byte. An H200 does about 206 "
         "float16 tensor-core FLOPs per byte it reads from its main memory. At $d_k = 128$, "
         "does $S$ wait for memory or for arithmetic?",
         "For memory: in the time one byte arrives the tensor cores could do about 206 FLOPs, "
         "and $S$ has only 128 to do with it.", 15, computes=True),
)
