"""Extra self-test cards of notebook 17 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    Card("Where does the course's attention sit in one block of SmolLM2-135M?",
         "After an RMSNorm, as the first of the block's two parts: $Q$, $K$ and $V$ are the "
         "normalised token rows times $W_Q$, $W_K$, $W_V$; RoPE turns $Q$ and $K$; each of the "
         "9 heads computes $\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V$ under the causal mask, "
         "with 3 key/value heads shared by 3 query heads each; $W_O$ mixes the heads, "
         "and the result is added to the token's row. Then the feed-forward network, after "
         "its own RMSNorm, does the same for each token alone.",
         17),
    Card("A head's grid $A$ has 6 rows (0 to 5). Its weights on the token just before are "
         "0.9, 0.7, 0.8 and 0.6 in rows 1 to 4, and 0.5 in row 5. What is its previous-token "
         "score?",
         "Row 0 has no previous token, so the mean is over rows 1 to 5: "
         "$(0.9 + 0.7 + 0.8 + 0.6 + 0.5)/5 = 0.70$.", 17, computes=True),
    Card("Layer 13's head 8 gives \"cat\" 0.80 of the weight of \"it\" in \"The cat sat on the "
         "mat because it was tired\". Why is this not the model resolving what \"it\" refers "
         "to?",
         "Under the causal mask \"it\" sees only \"The cat sat on the mat because it\": the "
         "words that decide the reference (\"was tired\") come later. Whatever the head's "
         "job, it cannot use those words; one head's weight is not an explanation.", 17),
    Card("The model was trained with scores $\\div\\sqrt{d_k}$. Run with no scale at all, its "
         "rows get more peaked and its perplexity jumps. What does that show, and what does it "
         "not?",
         "It shows how sensitive a trained model is to the scale it was trained with: "
         "without it every score is $\\sqrt{64} = 8$ times its trained size, which changes "
         "every weight. It does not show why $\\div\\sqrt{d_k}$ is the scale to train with; "
         "notebooks 08 (the size of the scores) and 13 (one-hot rows pass back almost no "
         "gradient) show why.", 17),
    Card("How many bytes does SmolLM2-135M's float32 KV cache hold for 1000 tokens? (30 "
         "layers, 3 key/value heads, $d_k = 64$.)",
         "$2 \\times 30 \\times 3 \\times 64 \\times 4 = 46\\,080$ bytes a token, so "
         "$46\\,080\\,000$ bytes, about 44 MiB, for 1000 tokens.", 17, computes=True),
)
