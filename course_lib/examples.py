"""Small worked examples the pictures use, with numbers chosen by hand so they mean something.

:func:`designed_sentence` is notebook 09's "the cat sat on the mat": every key says what its
word *is* and every query what its word *looks for*, one slot per meaning, so each word
attends to the word it should. :func:`projection_weights` gives notebook 05's three weight
matrices W_Q, W_K, W_V. Real models learn these numbers; here a reader can check them by eye.
:func:`multihead_layer_example` is notebook 12's ``torch.nn.MultiheadAttention`` layer with what
PyTorch computed for it, so that the notebook can check its port without PyTorch.
"""

import numpy as np

__all__ = ["DESIGNED_WORDS", "SLOT_MEANINGS", "VALUE_MEANINGS", "designed_sentence",
           "multihead_layer_example",
           "projection_weights"]

DESIGNED_WORDS = ("the", "cat", "sat", "on", "the", "mat")
SLOT_MEANINGS = ("a thing (noun)", "alive", "an action (verb)", "a place word")

# What each word IS (its key) and what it LOOKS FOR (its query), one slot per meaning above.
_IS = {"the": (0, 0, 0, 0), "cat": (1, 1, 0, 0), "sat": (0, 0, 1, 0), "on": (0, 0, 0, 1),
       "mat": (1, 0, 0, 0)}
_LOOKS_FOR = {
    "the": (1, 0, 0, 0),  # a noun to point at (cat or mat: without word order it cannot tell)
    "cat": (0, 0, 1, 0),  # what it does: sat
    "sat": (0, 1, 0, 0),  # who sits: the one that is alive, cat
    "on": (1, -1, 0, 0),  # a thing that is not alive: mat
    "mat": (0, 0, 0, 1),  # the place word that points at it: on
}
# What each word HANDS OVER (its value), two slots: alive (+) or lifeless (−), an action (+) or
# a place (−). A query's output row is a blend of these, so it reads in the same two slots.
VALUE_MEANINGS = ("alive (+) or lifeless (−)", "an action (+) or a place (−)")
_VALUES = {"the": (0, 0), "cat": (3, 0), "sat": (0, 3), "on": (0, -3), "mat": (-3, 0)}


def designed_sentence(d_k=4, query_strength=2.0, key_strength=3.0):
    """The toy sentence with hand-chosen queries, keys and values (d_v = 2, one slot per
    meaning of ``VALUE_MEANINGS``: "cat" hands over +3 alive, "mat" −3, "sat" +3 action, "on"
    −3, a place).

    Slot t of a key is ``key_strength`` if its word is ``SLOT_MEANINGS[t]``; slot t of a query
    is ``query_strength`` (or its negative) if the word looks for (or avoids) that meaning. At
    d_k = 4 a matching pair scores 2 × 3 = 6, and 6 ÷ √4 = 3 after scaling; every other pair
    scores 0 or less. Both "the"s have the same rows: with no word order in the vectors, each
    points at both nouns.

    A wider d_k (a multiple of 4) writes each meaning into d_k / 4 slots, each slot shrunk by
    (4 / d_k)^¼, so that a match scores 6 √(d_k / 4): it grows like √d_k, as the random dot
    products of notebook 08 do, and ÷ √d_k gives the same grid for every d_k.

    Returns
    -------
    words (tuple of n str), query (n, d_k), key (n, d_k), value (n, d_v) NumPy arrays.

    >>> words, query, key, value = designed_sentence()
    >>> query.shape, key.shape, value.shape
    ((6, 4), (6, 4), (6, 2))
    >>> int(np.argmax(query[1] @ key.T))   # "cat" looks for its action ...
    2
    >>> words[2]                           # ... "sat"
    'sat'
    >>> float(designed_sentence(64)[1][1] @ designed_sentence(64)[2][2])   # 6 × √(64 / 4)
    24.0
    """
    if d_k < 4 or d_k % 4:
        raise ValueError(f"d_k must be a positive multiple of 4 (one or more slots per "
                         f"meaning); got {d_k}")
    width, shrink = d_k // 4, (4 / d_k) ** 0.25
    looks_for = np.array([_LOOKS_FOR[w] for w in DESIGNED_WORDS], float)  # (n, 4)
    is_a = np.array([_IS[w] for w in DESIGNED_WORDS], float)  # (n, 4)
    query = query_strength * shrink * np.repeat(looks_for, width, axis=1)  # (n, d_k)
    key = key_strength * shrink * np.repeat(is_a, width, axis=1)  # (n, d_k)
    value = np.array([_VALUES[w] for w in DESIGNED_WORDS], float)  # (n, 2)
    return DESIGNED_WORDS, query + 0.0, key + 0.0, value  # + 0.0: no −0.0


def projection_weights(d_model=4, d_k=3, d_v=2, seed=5):
    """Three seeded weight matrices W_Q (d_model × d_k), W_K (d_model × d_k), W_V (d_model ×
    d_v), one decimal each, scaled by 1/√d_model as a model initialises them.

    >>> w_q, w_k, w_v = projection_weights()
    >>> w_q.shape, w_k.shape, w_v.shape
    ((4, 3), (4, 3), (4, 2))
    """
    rng = np.random.default_rng(seed)
    shapes = ((d_model, d_k), (d_model, d_k), (d_model, d_v))
    return tuple(np.round(rng.standard_normal(shape) / np.sqrt(d_model), 1) + 0.0
                 for shape in shapes)


def multihead_layer_example(seed=12, n=3, d_model=4):
    """``torch.nn.MultiheadAttention(4, 2)``'s parameters in PyTorch's layout (seeded, two
    decimals), one unbatched sentence ``x`` of 3 tokens, and what PyTorch 2.13 returned in float64
    for ``layer(x, x, x, average_attn_weights=False)``: ``torch_output`` (n, d_model) and
    ``torch_weights`` (heads, n, n); and PyTorch's default batched call, ``x_batch`` (n, batch,
    d_model) = (3, 2, 4) with ``key_padding_mask`` (batch, m), True where a key is padding
    (BLOCKED, the opposite of ``course_lib``'s masks): ``torch_batch_output`` (n, batch,
    d_model) for ``layer(x_batch, x_batch, x_batch, key_padding_mask=key_padding_mask)``.
    tools/make_torch_fixtures.py records the same case in tests/data/torch_multihead.npz, and
    tests/test_torch_parity.py checks the two agree.

    >>> ex = multihead_layer_example()
    >>> ex["in_proj_weight"].shape, ex["in_proj_bias"].shape, ex["torch_weights"].shape
    ((12, 4), (12,), (2, 3, 3))
    """
    rng = np.random.default_rng(seed)
    layer = {"x": rng.standard_normal((n, d_model)).round(2),
             "in_proj_weight": (rng.standard_normal((3 * d_model, d_model)) / 2).round(2),
             "in_proj_bias": (rng.standard_normal(3 * d_model) / 2).round(2),
             "out_proj_weight": (rng.standard_normal((d_model, d_model)) / 2).round(2),
             "out_proj_bias": (rng.standard_normal(d_model) / 2).round(2)}
    layer["x_batch"] = rng.standard_normal((n, 2, d_model)).round(2)  # (n, batch, d_model)
    layer["key_padding_mask"] = np.arange(n) >= np.array([n, n - 1])[:, None]  # sequence 1: 2 keys
    return {**layer, "torch_output": np.array(_TORCH_OUTPUT),
            "torch_weights": np.array(_TORCH_WEIGHTS),
            "torch_batch_output": np.array(_TORCH_BATCH_OUTPUT)}


_TORCH_OUTPUT = [  # PyTorch 2.13, float64: (3, 4)
    [-0.09140428990312932, 0.11000130811836217, 0.37738668366831163, 1.1908049047636695],
    [0.3303963311877107, -0.772303623828047, 0.41528629454832555, -0.009754846360338104],
    [-0.10731378725915819, 0.18271161111446144, 0.4045030219742838, 1.30472253518355]]
_TORCH_BATCH_OUTPUT = [  # (3 tokens, 2 sequences, 4); sequence 1's last key is padding
    [[-0.06504843813849298, -0.7273081578815863, -0.38033407924773166, -0.08588150910300421],
     [0.23577145009492323, -0.7284330591232896, 0.17055102148260048, 0.08886173389901172]],
    [[-0.4937866210725695, -0.19311770452335353, -0.5529434942073593, 0.3987943403947011],
     [0.1160679910332974, -0.5527507255912711, 0.15353909960799028, 0.2600929355605883]],
    [[-0.21414262407237733, -0.3417877330725202, -0.2464902253997573, 0.3839943586263783],
     [0.14826280203910347, -0.5413879050346213, 0.21603207125781837, 0.301767934006803]]]
_TORCH_WEIGHTS = [  # (2 heads, 3, 3)
    [[0.14920328646688766, 0.7035909424862784, 0.14720577104683413],
     [0.4014923542659785, 0.004190244327193059, 0.5943174014068283],
     [0.11981571487042736, 0.7679591391144861, 0.11222514601508643]],
    [[0.3205224390331705, 0.2458315877899428, 0.4336459731768866],
     [0.4622381113056234, 0.16289315956194692, 0.37486872913242963],
     [0.33872501326963345, 0.2415583542805067, 0.41971663244985985]]]
