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
         "Variance 64 and spread 8: divide by $\\sqrt{64} = 8$, and the variance is "
         "$64 / 8^2 = 1$.", 8, computes=True),
    Card("What goes wrong if you divide the scores by $d_k$ instead of $\\sqrt{d_k}$?",
         "The variance falls to $d_k / d_k^2 = 1/d_k$: the scores are nearly equal, every key "
         "gets about the weight $1/m$, and the gradient shrinks like $1/\\sqrt{d_k}$: the "
         "multiplier $1/d_k$ times $\\lVert \\mathbf{k}_j \\rVert \\approx \\sqrt{d_k}$ "
         "leaves $1/\\sqrt{d_k}$.", 8),
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
    Card("Why does every output row lie inside the smallest straight-edged shape around the "
         "value rows?",
         "Each row of $A$ is positive and adds up to 1, so output row $i$, "
         "$\\sum_{j=1}^{m} A_{ij}\\,\\mathbf{v}_j$, is a weighted average of the value rows: "
         "such a blend cannot reach past the outermost point in any direction.",
         9),
    # 10 Equipment checklist: applied (each card puts one checklist answer to work on numbers)
    Card("A sentence of $n = 10$ words attends over a memory of $m = 12$ words, with "
         "$d_k = 64$ and $d_v = 16$. What are the shapes of $Q$, $K$, $V$ and of the output?",
         "$Q$ is $10 \\times 64$, $K$ is $12 \\times 64$, $V$ is $12 \\times 16$, and the output "
         "is $10 \\times 16$ ($n \\times d_v$): one row per query, as wide as a value.", 10,
         computes=True),
    Card("A 7-word question attends over a 300-word document. How many scores does it "
         "compute, and which of its weights add up to 1?",
         "$7 \\times 300 = 2100$ scores in a $7 \\times 300$ grid ($n \\times m$). Each row's 300 "
         "weights add up to 1: seven sums of 1, not one for the whole grid.", 10,
         computes=True),
    Card("What is $\\operatorname{softmax}([\\ln 2, \\ln 2, 0])$?",
         "$e^{\\ln 2} = 2$, $e^{\\ln 2} = 2$, $e^0 = 1$, total 5: the weights are "
         "$[0.4, 0.4, 0.2]$.", 10, computes=True),
    Card("The scores $[1, 2, 3]$ become $[101, 102, 103]$. What happens to the weights?",
         "Nothing: $e^{x + 100} = e^{100} e^x$, and the factor $e^{100}$ cancels when each "
         "$e^x$ is divided by the total. The stable softmax relies on this when it subtracts "
         "each row's largest score.", 10, computes=True),
    Card("With $d_k = 256$, the scores $q \\cdot k$ have variance 256. What are their "
         "variance after $\\div\\sqrt{d_k}$, and after $\\div d_k$?",
         "After $\\div 16$: $256 / 16^2 = 1$. After $\\div 256$: $256 / 256^2 = 1/256 \\approx "
         "0.0039$ (spread $1/16$): over-shrunk.", 10, computes=True),
    Card("$q = [1, 2, 2]$ and $k = [2, 0, 1]$. What are $\\lVert q \\rVert$, "
         "$\\lVert k \\rVert$, $q \\cdot k$ and the cosine of the angle between them?",
         "$\\lVert q \\rVert = \\sqrt{1 + 4 + 4} = 3$, $\\lVert k \\rVert = \\sqrt{5} \\approx "
         "2.236$, $q \\cdot k = 2 + 0 + 2 = 4$, so "
         "$\\cos\\theta = 4 / (3\\sqrt{5}) \\approx 0.596$, an angle of about 53°.", 10,
         computes=True),
)
