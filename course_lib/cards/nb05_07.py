"""Extra self-test cards of notebooks 05–07 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    # 05 · Matrices
    Card("What is the difference between $q_2$ and $\\mathbf{q}_2$?",
         "$q_2$ (plain) is one number: slot 2 of a vector $q$. $\\mathbf{q}_2$ (bold) is a "
         "whole vector: row 2 of the matrix $Q$, the second query.", 5),
    Card("$Q$ is $3 \\times 64$ and $V$ is $10 \\times 32$. What are $n$, $m$, $d_k$ and "
         "$d_v$, and what is the shape of $K$?",
         "$n = 3$ queries and $d_k = 64$ slots (from $Q$), $m = 10$ values of $d_v = 32$ slots "
         "(from $V$). $K$ has one row per value and a query's width: $10 \\times 64$.", 5,
         computes=True),
    Card("A translator has $n = 7$ queries and $m = 9$ keys with $d_k = 64$. How many dot "
         "products does the score grid hold, and how many multiplications do they take?",
         "$7 \\times 9 = 63$ dot products, each of 64 slot products: $63 \\times 64 = 4032$ "
         "multiplications.", 5, computes=True),
    Card("In self-attention, which of $n$, $m$, $d_k$, $d_v$ are equal, and which must be "
         "equal in any attention?",
         "In self-attention the queries and keys come from the same sentence, so $n = m$. In "
         "any attention a query and a key share $d_k$ (their dot product), and $K$ and $V$ "
         "share $m$ (one value per key); $d_v$ may differ from $d_k$.", 5),
    # 06 · Transpose and matrix product
    Card("What is the shape of a $(2 \\times 3) \\cdot (3 \\times 5)$ product, and of "
         "$(4 \\times 3) \\cdot (4 \\times 3)$?",
         "$2 \\times 5$: the inner sizes 3 and 3 match and the outer ones remain. "
         "$(4 \\times 3) \\cdot (4 \\times 3)$ does not exist: the inner sizes 3 and 4 differ "
         "(transpose the second: $4 \\times 4$).", 6, computes=True),
    Card("$\\mathbf{q}_1 = [1, 2, 0]$ and $\\mathbf{k}_2 = [3, -1, 5]$. What is $S_{12}$?",
         "$S_{12} = \\mathbf{q}_1 \\cdot \\mathbf{k}_2 = 1 \\times 3 + 2 \\times (-1) "
         "+ 0 \\times 5 = 1$.", 6, computes=True),
    Card("$Q$ is $3 \\times 2$ and $K$ is $4 \\times 2$. Which of `Q @ K`, `Q @ K.T`, "
         "`K @ Q.T` give a score grid, and of which shape?",
         "`Q @ K` fails (inner sizes 2 and 4). `Q @ K.T` is $S$, $3 \\times 4$: row $i$ for "
         "query $i$. `K @ Q.T` is its transpose, $4 \\times 3$, with the keys as rows.", 6,
         computes=True),
    Card("$X$ holds 6 words of 4 slots each, and $W_Q$ is $4 \\times 3$. What is the shape of "
         "$Q = XW_Q$, and what are $n$ and $d_k$?",
         "$6 \\times 3$: one row per word, so $n = 6$ queries of $d_k = 3$ slots each. The "
         "inner sizes (4 and 4) match and disappear.", 6, computes=True),
    Card("$\\mathbf{x}_1 = [1, 2]$ and column 1 of $W_Q$ is $[3, -1]$. What is slot 1 of "
         "$\\mathbf{q}_1$?",
         "The dot product $1 \\times 3 + 2 \\times (-1) = 1$.", 6, computes=True),
    # 07 · Softmax
    Card("What is $\\operatorname{softmax}([0, \\ln 3])$?",
         "$e^0 = 1$ and $e^{\\ln 3} = 3$, total 4: the weights are "
         "$[1/4, 3/4] = [0.25, 0.75]$.", 7, computes=True),
    Card("Why does subtracting the row's largest score not change the softmax?",
         "$e^{x_j - c} = e^{-c} e^{x_j}$: the same factor $e^{-c}$ multiplies the top and "
         "every term of the total, so it cancels. It only keeps every exponent $\\le 0$.", 7),
    Card("For the weights $p = [0.5, 0.5]$, what are the slopes $J_{11}$ and $J_{12}$?",
         "$J_{11} = p_1(1 - p_1) = 0.25$ and $J_{12} = -p_1 p_2 = -0.25$.", 7,
         computes=True),
    Card("The scores $[1, 0]$ are multiplied by 10. About what are $p_1$ and the slope "
         "$p_1(1 - p_1)$ now?",
         "$p_1 = e^{10} / (e^{10} + 1) \\approx 0.99995$, slope about $4.5 \\times 10^{-5}$ "
         "(0.197 at $[1, 0]$): saturated, a nudge barely moves the weight.", 7, computes=True),
)
