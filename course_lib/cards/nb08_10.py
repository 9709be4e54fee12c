"""Extra self-test cards of notebooks 08–10 (see :mod:`course_lib.cards`): most make the
learner compute; notebook 10's apply the whole checklist to numbers."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    # 08 Variance and scaling
    Card("Darts land at $-2, 0, 2, 0$. What are their variance and their spread?",
         "The mean is 0, so the variance is the average square, $(4 + 0 + 4 + 0)/4 = 2$, and "
         "the spread is $\\sqrt{2} \\approx 1.41$.", 8, computes=True),
    Card("Every score is multiplied by 3. What happens to the variance, and to the spread?",
         "The variance is multiplied by $3^2 = 9$ and the spread by 3: "
         "$\\operatorname{Var}(c\\,x) = c^2 \\operatorname{Var}(x)$.", 8, computes=True),
    Card("Query and key have $d_k = 64$ independent slots of mean 0 and variance 1. What are "
         "the variance and the spread of $q \\cdot k$, and what do you divide the scores by?",
         "Variance 64 and spread 8: divide by $\\sqrt{64} = 8$ (PyTorch's scale is the "
         "multiplier $1/8$), and the variance is $64 / 8^2 = 1$.", 8, computes=True),
    Card("What goes wrong if you divide the scores by $d_k$ instead of $\\sqrt{d_k}$?",
         "The variance falls to $d_k / d_k^2 = 1/d_k$: the scores are nearly equal, every key "
         "gets about the weight $1/m$, and the gradient carries the tiny factor $1/d_k$.", 8),
    # 09 Attention
    Card("$Q$ is $5 \\times 64$, $K$ is $7 \\times 64$, $V$ is $7 \\times 32$. What are the "
         "shapes of $S = QK^\\top$, of the weights $A$ and of the output $AV$?",
         "$S$ and $A$ are $5 \\times 7$ ($n \\times m$: one entry per query and key); the "
         "output is $5 \\times 32$ ($n \\times d_v$).", 9, computes=True),
    Card("One query's weights are $[0.5, 0.25, 0.25]$ and the values are "
         "$\\mathbf{v}_1 = [4, 0]$, $\\mathbf{v}_2 = [0, 4]$, $\\mathbf{v}_3 = [0, 0]$. What is "
         "its output row?",
         "$0.5 \\cdot [4, 0] + 0.25 \\cdot [0, 4] + 0.25 \\cdot [0, 0] = [2, 1]$.", 9,
         computes=True),
    Card("Why does every output row lie among the value rows, never outside them?",
         "Each row of $A$ is positive and adds up to 1, so output row $i$, "
         "$\\sum_{j=1}^{m} A_{ij}\\,\\mathbf{v}_j$, is a weighted average of the value rows.",
         9),
    # 10 Equipment checklist: applied
    Card("$Q \\in \\mathbb{R}^{10 \\times 64}$, $K \\in \\mathbb{R}^{12 \\times 64}$, "
         "$V \\in \\mathbb{R}^{12 \\times 16}$. What is the shape of "
         "$\\operatorname{softmax}(QK^\\top/\\sqrt{d_k})\\,V$?",
         "$10 \\times 16$, that is $n \\times d_v$: one output row per query, as long as a "
         "value row.", 10, computes=True),
    Card("What is $\\operatorname{softmax}([0, \\ln 3])$?",
         "$e^0 = 1$ and $e^{\\ln 3} = 3$, total 4: the weights are $[1/4, 3/4] = "
         "[0.25, 0.75]$.", 10, computes=True),
    Card("With $d_k = 256$, the scores $q \\cdot k$ have variance 256. What are their "
         "variance after $\\div\\sqrt{d_k}$, and after $\\div d_k$?",
         "After $\\div 16$: $256 / 16^2 = 1$. After $\\div 256$: $256 / 256^2 = 1/256 \\approx "
         "0.0039$ (spread $1/16$): over-shrunk.", 10, computes=True),
    Card("Four keys all get the score 3. What are the weights?",
         "All equal, $1/4 = 0.25$ each: softmax of equal scores is the even split $1/m$.", 10,
         computes=True),
    Card("$q = [1, 2, 3]$ and $k = [4, 0, -1]$. What are $q \\cdot k$ and "
         "$\\lVert [3, 4] \\rVert$?",
         "$q \\cdot k = 4 + 0 - 3 = 1$; $\\lVert [3, 4] \\rVert = \\sqrt{9 + 16} = 5$.", 10,
         computes=True),
    Card("Why is the score grid $n \\times m$ and not $n \\times n$ in cross-attention?",
         "Row $i$ holds query $i$'s score against each of the $m$ keys; the keys come from "
         "another sequence, so $m \\ne n$ in general. It is square only when queries and keys "
         "come from the same sequence.", 10),
)
