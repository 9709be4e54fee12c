"""Extra self-test cards of notebooks 11–13 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

_MASKS = (
    Card("Why is a blocked score set to $-\\infty$ rather than to 0?",
         "Because $e^{-\\infty} = 0$: the blocked key gets weight exactly 0 and the others "
         "still add up to 1. A score of 0 would still get weight $e^0 = 1$ before dividing.", 11),
    Card("Masking with $-\\infty$ before the softmax, or zeroing the weights after it and "
         "dividing by the new row total: why do implementations use the first?",
         "Mathematically both give the same weights, but the second can give $0/0$: for the "
         "scores $(1000, 0, 1)$ with the 1000 blocked, the first softmax gives the allowed keys "
         "$e^{-1000}$ and $e^{-999}$, which underflow to exactly 0, and the new row total is 0. "
         "With $-\\infty$ first, the shift is the largest ALLOWED score and nothing underflows.",
         11),
    Card("What does a causal mask allow, and what is its shape?",
         "Query $i$ may attend to keys $0, \\dots, i$ only (itself and the past): a "
         "lower-triangular $n \\times m$ grid of True, top-left aligned.", 11),
    Card("A query's keys are all masked. What do `course_lib` and PyTorch's "
         "`scaled_dot_product_attention` return for it, what does `nn.MultiheadAttention` "
         "(with its default `need_weights=True`), and what does Hugging Face's eager attention?",
         "`course_lib`: weights and an output row of 0; SDPA (it returns no weights): an output "
         "row of 0. `nn.MultiheadAttention`: NaN, "
         "a plain softmax of a row of $-\\infty$. Hugging Face adds `torch.finfo(dtype).min` "
         "instead of $-\\infty$: every score of the row becomes the same number, each key gets "
         "$1/m$, and the output is the average of all the value rows.", 11),
    Card("A padded batch runs under the causal mask. When can a query end up with no key to "
         "attend to?",
         "Only with left padding (filler first), for a sequence with a real token (one of length "
         "0 empties every row either way): a filler query at the start may see the keys up to "
         "itself, and they are all filler. With right padding key 0 is real, and every query "
         "may see it.", 11),
    Card("A sequence of 3 real tokens is left-padded to $n = 5$ under the causal mask. How many "
         "of the 25 cells of its mask are True?",
         "6: the real keys are 2, 3 and 4, so queries 2, 3 and 4 see 1, 2 and 3 of them, and "
         "queries 0 and 1 see none.", 11, computes=True),
    Card("If you shuffle the keys and the values together, what happens to the output?",
         "Nothing: attention is a weighted sum, and a sum does not care about order. That is "
         "why transformers add positional information to the tokens.", 11),
    Card("How many cells of the causal mask for $n = m = 6$ are True?",
         "$1 + 2 + \\dots + 6 = \\frac{6 \\cdot 7}{2} = 21$ of the 36: query $i$ sees $i + 1$ "
         "keys (counting from 0).", 11, computes=True),
    Card("One query has the scores $(0, \\ln 2, 5)$ and key 2 is blocked. What are its three "
         "weights?",
         "$e^0 = 1$ and $e^{\\ln 2} = 2$, total 3, so $(1/3,\\ 2/3,\\ 0)$; the blocked 5 takes "
         "no part, however large it is.", 11, computes=True),
)

_HEADS = (
    Card("In self-attention and in cross-attention, where do $Q$, $K$ and $V$ come from?",
         "Self-attention: all three are projections of the same sequence $X$. "
         "Cross-attention: $Q$ comes from one sequence ($XW_Q$) and $K$ and $V$ from another "
         "($YW_K$, $YW_V$).", 12),
    Card("With $d_{\\text{model}} = 512$ and $h = 8$ heads, what is $d_k$, and what does each "
         "head divide its scores by?",
         "$d_k = 512 / 8 = 64$, so each head divides by $\\sqrt{64} = 8$: the width of the "
         "vectors it takes dot products of, not $\\sqrt{512} \\approx 22.6$.", 12, computes=True),
    Card("What shape are the weights of multi-head attention for $n$ queries and $m$ keys?",
         "$(h, n, m)$: one $n \\times m$ grid per head, each row summing to 1.", 12),
    Card("What does $W_O$ do?",
         "It mixes the heads: the $h$ outputs of width $d_v$ are laid side by side (width "
         "$h\\,d_v$) and multiplied by $W_O$, so every output column can draw on every head.",
         12),
    Card("With $d_{\\text{model}} = 12$ and $h = 4$ heads, which columns of $Q$ belong to head "
         "2 (counting heads and columns from 0)?",
         "$d_k = 12 / 4 = 3$, so head 2 owns columns $2 \\cdot 3 = 6$ to $3 \\cdot 3 - 1 = 8$: "
         "columns 6, 7 and 8, the slice `[6:9]` in Python.", 12, computes=True),
    Card("`nn.MultiheadAttention(512, 8)` keeps its projections in `in_proj_weight`. What "
         "shape is it, and how do you get $W_Q$ out of it?",
         "$(1536, 512)$: $W_Q^\\top$, $W_K^\\top$ and $W_V^\\top$ stacked, because `nn.Linear` "
         "computes $\\mathbf{x}W^\\top + \\mathbf{b}$. $W_Q$ is `in_proj_weight[:512].T`.", 12,
         computes=True),
    Card("Queries of shape $(B, n, d_{\\text{model}})$ go to $h$ heads. Which two steps give "
         "the layout $(B, h, n, d_k)$?",
         "A reshape to $(B, n, h, d_k)$, then axes 1 and 2 swapped; Hugging Face's Llama writes "
         "`.view(hidden_shape).transpose(1, 2)`. After attention the same steps run backwards.",
         12),
    Card("How many numbers do $W_Q$, $W_K$, $W_V$ and $W_O$ hold together for "
         "$d_{\\text{model}} = 512$, with 8 heads? With 16?",
         "$4 \\cdot 512^2 = 1{,}048{,}576$ both times: the heads only cut the same columns into "
         "more, narrower slices.", 12, computes=True),
)

_GRADIENTS = (
    Card("Given $\\partial L/\\partial O$, what are $\\partial L/\\partial V$ and "
         "$\\partial L/\\partial A$ for $O = AV$?",
         "$\\partial L/\\partial V = A^\\top (\\partial L/\\partial O)$ and "
         "$\\partial L/\\partial A = (\\partial L/\\partial O)\\, V^\\top$: the two ways a "
         "product passes its gradient back, one per factor.", 13),
    Card("How does the gradient pass back through a row softmax $a = "
         "\\operatorname{softmax}(s)$?",
         "$\\partial L/\\partial s_j = a_j \\big(\\partial L/\\partial a_j - \\sum_l a_l\\, "
         "\\partial L/\\partial a_l\\big)$: the softmax Jacobian "
         "$\\operatorname{diag}(a) - a a^\\top$ applied to the row, without building it.", 13),
    Card("Without the $\\sqrt{d_k}$, which scores stop getting gradient, and when does a "
         "whole row?",
         "The raw scores spread like $\\sqrt{d_k}$, so a row puts nearly all its weight on a "
         "few keys; with $g_j = \\partial L/\\partial a_j$, every $a_j (g_j - \\sum_l a_l g_l)$ "
         "with $a_j$ near 0 is near 0, so the other keys cannot become favourites. A one-hot row "
         "(more of them as $d_k$ grows) zeroes the top key's bracket too: nothing passes back.",
         13),
    Card("Why can the backward pass get each row's total "
         "$D_i = \\sum_j A_{ij}\\, \\partial L/\\partial A_{ij}$ without the $n \\times m$ grids?",
         "Because $\\partial L/\\partial A = G V^\\top$ and $AV = O$ turn it into "
         "$D_i = \\sum_c G_{ic} O_{ic}$: $D = \\operatorname{rowsum}(G \\odot O)$, from the "
         "output and its gradient only. FlashAttention-2 computes it before its tiles.", 13),
    Card("A query's output row is $(0.5, -1)$ and its row of $G = \\partial L/\\partial O$ is "
         "$(3, 1)$. What is its $D_i$?",
         "$D_i = 3 \\cdot 0.5 + 1 \\cdot (-1) = 0.5$: the row of $G \\odot O$, added up.", 13,
         computes=True),
    Card("How do you check a gradient you derived by hand?",
         "Nudge each input by a small $\\varepsilon$ both ways and compare "
         "$\\frac{L(x + \\varepsilon) - L(x - \\varepsilon)}{2\\varepsilon}$ with your formula, "
         "in float64; the relative error should be tiny (here below $10^{-6}$).", 13),
    Card("A row of weights is one-hot, $a = (1, 0, 0)$, and $\\partial L/\\partial a = "
         "(2, -1, 3)$. What is $\\partial L/\\partial s$?",
         "With $g = \\partial L/\\partial a$, $\\sum_l a_l g_l = 2$, so "
         "$\\partial L/\\partial s = (1 \\cdot (2 - 2),\\ 0,\\ 0) = (0, 0, 0)$: a saturated row "
         "passes no gradient at all.", 13, computes=True),
    Card("For $a = (0.5, 0.5)$ and $\\partial L/\\partial a = (1, 0)$, what is "
         "$\\partial L/\\partial s$?",
         "With $g = \\partial L/\\partial a$, $\\sum_l a_l g_l = 0.5$, so "
         "$(0.5 \\cdot 0.5,\\ 0.5 \\cdot (-0.5)) = (0.25, -0.25)$; the entries add up to 0, "
         "as every row of $\\partial L/\\partial S$ does.", 13, computes=True),
    Card("$Q$ is $2 \\times 4$, $K$ is $3 \\times 4$, $V$ is $3 \\times 2$. What are the shapes "
         "of $\\partial L/\\partial S$, $\\partial L/\\partial Q$, $\\partial L/\\partial K$ and "
         "$\\partial L/\\partial V$?",
         "$2 \\times 3$ (like $S$), then $2 \\times 4$, $3 \\times 4$ and $3 \\times 2$: every "
         "gradient has the shape of what it is the gradient of.", 13, computes=True),
)

CARDS: tuple[Card, ...] = _MASKS + _HEADS + _GRADIENTS
