"""Extra self-test cards of notebook 16 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    Card("What does a KV cache keep, and what does one decoding step compute with it?",
         "The key rows and value rows of every token so far, per layer and key/value head. A "
         "step computes the new token's query, key and value rows, appends the key and the "
         "value to the cache, and attends with that one query row over the whole cache: one "
         "row of scores instead of the whole grid. The outputs equal full causal attention.",
         16),
    Card("Three new queries attend to a cache of $m = 5$ keys (the last three positions). "
         "With the bottom-right causal mask, which keys does each query see? And with "
         "`is_causal=True` (top-left)?",
         "Bottom-right: query $i$ sits at position $i + m - n = i + 2$, so it sees keys "
         "$0 \\dots 2$, $0 \\dots 3$ and $0 \\dots 4$. Top-left: keys $0$, $0 \\dots 1$ and "
         "$0 \\dots 2$, so the newest token would not even see itself.", 16, computes=True),
    Card("Llama 2 70B has 80 layers, 64 query heads and 8 key/value heads of $d_k = 128$. "
         "How many bytes does one token add to its 16-bit cache, and how many with a "
         "key/value head per query head?",
         "$2 \\times 80 \\times 8 \\times 128 \\times 2 = 327680$ bytes (320 KiB) with its 8 "
         "shared heads; $2 \\times 80 \\times 64 \\times 128 \\times 2 = 2621440$ bytes "
         "(2.5 MiB) with 64, eight times as much.", 16, computes=True),
    Card("In grouped-query attention with 8 query heads and 2 key/value heads, which "
         "key/value head does query head 5 use?",
         "Each key/value head serves $8 / 2 = 4$ consecutive query heads: heads 0–3 use "
         "key/value head 0, heads 4–7 use head 1. So head $5$ uses head $\\lfloor 5/4 \\rfloor "
         "= 1$.", 16, computes=True),
    Card("Why does the score of a rotated query at position $i$ and a rotated key at "
         "position $j$ depend only on $i - j$?",
         "Each pair of slots turns by an angle proportional to the position. Turning both "
         "rows changes their dot product only through the difference of their angles, "
         "$(j - i)\\,\\theta_t$ per pair, since a rotation keeps lengths and the angle "
         "between two arrows is all a dot product sees besides lengths.", 16),
    Card("With a sliding window of 3, which keys does query 5 see (counting from 0, "
         "$n = m$)?",
         "Itself and the two before it: keys 3, 4 and 5.", 16, computes=True),
)
