"""Extra self-test cards of notebook 16 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    Card("What does a KV cache keep, and what does one decoding step compute with it?",
         "Every token's key and value rows, per layer and key/value head. A step appends the "
         "new token's key and value, then attends with its one query row over the whole cache: "
         "causal attention's outputs, exactly.", 16),
    Card("Three new queries attend to a cache of $m = 5$ keys (the last three positions). "
         "With the bottom-right causal mask, which keys does each query see? And with "
         "`is_causal=True` (top-left)?",
         "Bottom-right: query $i$ sits at position $i + m - n = i + 2$, so it sees keys "
         "$0 \\dots 2$, $0 \\dots 3$ and $0 \\dots 4$. Top-left: keys $0$, $0 \\dots 1$ and "
         "$0 \\dots 2$, so the newest token would not even see itself.", 16, computes=True),
    Card("Why is a decoding step bound by memory, and why do fewer key/value heads make it "
         "faster?",
         "It reads every weight and the whole cache once for about 1 operation per byte, where "
         "a GPU can do some 200: its time is the bytes over the bandwidth, so a smaller cache, "
         "read in full at every step, makes a faster step.", 16),
    Card("Blocks of 16 slots hold sequences of 100, 40 and 33 tokens. How many blocks are in "
         "use, and how many of their slots are empty?",
         "$\\lceil 100/16 \\rceil + \\lceil 40/16 \\rceil + \\lceil 33/16 \\rceil = 7 + 3 + 3 "
         "= 13$ blocks: 208 slots for 173 tokens, 35 empty.", 16, computes=True),
    Card("A sequence has 37 tokens cached. At which position does RoPE turn its new token, "
         "and where does a paged cache with blocks of 16 slots write its key?",
         "Position 37 (0 … 36 are taken). $37 = 2 \\times 16 + 5$: slot 5 of logical block 2, "
         "that is of the physical block `block_table[2]`.", 16, computes=True),
    Card("Why does the score of a rotated query at position $i$ and a rotated key at "
         "position $j$ depend only on $i - j$?",
         "Each pair turns by an angle proportional to the position, and a dot product sees "
         "only the arrows' lengths and the angle between them: it changes by "
         "$(j - i)\\,\\theta_t$.", 16),
)
