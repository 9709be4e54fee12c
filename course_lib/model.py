"""A real language model on the course's attention: SmolLM2-135M-Instruct, in NumPy.

SmolLM2-135M-Instruct (Hugging Face, Apache-2.0) is a Llama: 30 blocks of attention and a
small feed-forward network, each added back onto the token's vector (the residual stream)::

    x = embedding[ids]                                  # (n, 576): one row per token
    for block in blocks:                                # 30 times
        x = x + attention(rms_norm(x))                  # tokens look at earlier tokens
        x = x + feed_forward(rms_norm(x))               # each token on its own (SwiGLU)
    logits = rms_norm(x) @ embeddingᵀ                   # (n, 49152): a score per next token

Its attention is the course's: 9 query heads over 3 key/value heads (grouped-query attention,
notebook 16), rotary positions with base 100000 (:mod:`course_lib.rotary`), the bottom-right
causal mask over a KV cache (:func:`course_lib.causal_mask`) and softmax(QKᵀ/√d_k)V
(:func:`course_lib.attention.attention_formula`). ``load_model(attention=f)`` runs it on a
learner's own function instead.

The weights come from the GGUF file that ``make model`` downloads, read (and checked) once by
:func:`course_lib.model_file.read_model_file` and dequantized here (:func:`dequantize`); the
tokenizer is built from the same file with ``tokenizers``, imported inside :func:`load_model`,
so ``import course_lib`` still needs NumPy only.
"""

import functools
from contextlib import contextmanager
from numbers import Real
from typing import NamedTuple

import numpy as np

from .attention import attention_formula
from .kv_memory import ModelShape, kv_cache_bytes
from .masks import causal_mask
from .model_file import TENSOR_TYPES, read_model_file
from .rotary import rotary_cos_sin, rotate
from .scaling import check_scale
from .softmax import softmax
from .validation import check_count

__all__ = ["SYSTEM_PROMPT", "Block", "Cache", "Config", "LanguageModel", "build_tokenizer",
           "chat_prompt", "dequantize", "load_model", "next_token", "perplexity", "rms_norm",
           "silu", "unpermute_rows"]

# The default system prompt of the file's chat template (tokenizer.chat_template).
SYSTEM_PROMPT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"
CONTROL = 3  # GGUF token type of control tokens (<|im_start|>, <|im_end|>, ...)


class Config(NamedTuple):
    """The model's shape, read from the file's metadata (``llama.*`` keys)."""

    num_layers: int  # 30 blocks
    width: int  # 576 numbers per token: d_model
    num_heads: int  # 9 query heads per layer
    num_kv_heads: int  # 3 key/value heads: query head h reads key/value head h // 3
    head_dim: int  # 64 = d_k = d_v
    hidden: int  # 1536: the feed-forward network's inner width
    vocab_size: int  # 49152 tokens
    rope_base: float  # 100000: the slowest rotary angle
    eps: float  # 1e-5: RMSNorm's guard against dividing by zero
    context_length: int  # 8192 tokens at most


class Block(NamedTuple):
    """One block's weights, as PyTorch's ``nn.Linear`` keeps them: (out, in)."""

    attn_norm: np.ndarray  # (width,)
    w_qkv: np.ndarray  # ((H + 2G)·d, width): W_Q, W_K, W_V stacked
    w_out: np.ndarray  # (width, H·d): W_O
    mlp_norm: np.ndarray  # (width,)
    w_gate_up: np.ndarray  # (2·hidden, width): the gate's and the up projection's rows
    w_down: np.ndarray  # (width, hidden)


def rms_norm(x, weight, eps):
    """x / √(mean(x²) + ε) · weight, over each row: every token's vector brought to size ~1.

    >>> rms_norm(np.array([[3.0, 4.0]]), np.ones(2), 0.0).round(4).tolist()   # √12.5 ≈ 3.54
    [[0.8485, 1.1314]]
    """
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * weight


def silu(x):
    """x·σ(x) = x / (1 + e⁻ˣ), the gate of the SwiGLU feed-forward network.

    >>> silu(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [-0.2689, 0.0, 1.7616]
    """
    # e^88.7 overflows float32; below x = −80 the answer is 0 to 30 decimals either way
    return x / (1 + np.exp(-np.maximum(x, -80)))


def unpermute_rows(w, num_heads):
    """Undo the order in which llama.cpp stores the rows of W_Q and W_K, head by head.

    Each head owns d consecutive rows (its d slots of the query or key). llama.cpp's converter
    reorders them for its neighbouring-pair RoPE, which turns slots (2t, 2t + 1): its row 2t + j
    of a head is the original row t + j·d/2. The course pairs slot t with slot t + d/2
    (half-split, :func:`course_lib.rotary.rotate_half`), as the original model does. So, per
    head, the rows (d/2, 2) are read back as (2, d/2). Left as stored, every score is computed
    between the wrong pairs of slots and the logits are far off.

    Parameters
    ----------
    w : (num_heads·d, width), rows as stored in the file.
    num_heads : 9 for W_Q, 3 for W_K (grouped-query attention).

    >>> unpermute_rows(np.arange(4.0)[:, None], 1).ravel().tolist()   # rows 0, 2, 1, 3
    [0.0, 2.0, 1.0, 3.0]
    """
    rows, width = w.shape
    d = rows // num_heads
    return w.reshape(num_heads, d // 2, 2, width).swapaxes(1, 2).reshape(rows, width)


def chat_prompt(messages, add_generation_prompt=True):
    """ChatML, the file's chat template: ``<|im_start|>role\\ncontent<|im_end|>\\n`` per message.

    ``messages`` is one user message (a str) or a list of {"role", "content"} dicts. Without a
    system message first, the default one (:data:`SYSTEM_PROMPT`) is put in front.

    >>> print(chat_prompt("Hi"))
    <|im_start|>system
    You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>
    <|im_start|>user
    Hi<|im_end|>
    <|im_start|>assistant
    <BLANKLINE>
    """
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    if not messages or messages[0].get("role") != "system":
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, *messages]
    text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
    return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")


def perplexity(logits, ids):
    """exp(−mean log p(token t+1 | tokens 0 … t)): how surprised the model is by the text.

    1 would be certainty; a model guessing uniformly among V tokens scores V.

    Parameters
    ----------
    logits : (n, vocab), row t scores the token after token t; ids : (n,) the text's tokens.

    >>> round(float(perplexity(np.zeros((3, 4)), [0, 1, 2])), 6)   # uniform over 4 tokens
    4.0
    """
    logits = np.asarray(logits, dtype=np.float64)  # float64: log of a tiny probability
    ids = np.asarray(ids)
    if len(ids) < 2 or logits.shape != (len(ids), logits.shape[-1]):
        raise ValueError(f"perplexity needs at least 2 tokens and one row of logits per token; "
                         f"got {len(ids)} ids and logits of shape {logits.shape}")
    log_p = np.log(softmax(logits[:-1], axis=-1))  # (n − 1, vocab)
    return np.exp(-log_p[np.arange(len(ids) - 1), ids[1:]].mean())


class Cache:
    """Every layer's keys and values of the tokens so far: the KV cache of notebook 16, made
    once for ``capacity`` tokens and filled in place."""

    def __init__(self, config, capacity):
        shape = (config.num_layers, config.num_kv_heads, capacity, config.head_dim)
        self.key = np.zeros(shape, np.float32)  # (layers, G, capacity, d)
        self.value = np.zeros(shape, np.float32)
        self.length = 0  # tokens cached so far

    @property
    def capacity(self):
        return self.key.shape[2]

    def extend(self, layer, key, value):
        """Append the new tokens' key and value rows (G, r, d) of one layer; return all that
        layer's keys and values so far, (G, length + r, d) each."""
        stop = self.length + key.shape[1]
        self.key[layer, :, self.length:stop] = key
        self.value[layer, :, self.length:stop] = value
        return self.key[layer, :, :stop], self.value[layer, :, :stop]


class LanguageModel:
    """SmolLM2-135M-Instruct: the weights, the tokenizer and the forward pass.

    Get one with :func:`load_model`. ``attention`` is None (the course's formula) or a
    learner's function ``f(query (H, n, d), key (H, m, d), value (H, m, d_v), mask (n, m))``
    returning (H, n, d_v), where the key/value heads are already repeated for the query heads
    and ``mask`` is boolean, True where query i may look at key j.
    """

    def __init__(self, config, embedding, blocks, norm, tokenizer, attention=None, eos_id=2):
        self.config = config
        # (width, vocab), contiguous: the output head in the layout x @ head reads fastest (8 ms
        # a decoding step here, against 14 ms for x @ embedding.T); no copy where embedding is
        # already head.T (with_attention)
        self.head = np.ascontiguousarray(embedding.T)
        self.blocks = blocks  # a Block per layer
        self.norm = norm  # (width,): the final RMSNorm's weight
        self.tokenizer = tokenizer
        if attention is not None and not callable(attention):
            raise TypeError(f"attention must be a function f(query, key, value, mask) or None; "
                            f"got {type(attention).__name__}")
        self.attention = attention
        self.eos_id = eos_id  # <|im_end|>: the model says it has finished

    @property
    def embedding(self):
        """(vocab, width): row t is token t's vector; the same numbers as the head, tied."""
        return self.head.T

    def with_attention(self, attention):
        """The same model (the same weights, nothing copied) on another attention function."""
        return LanguageModel(self.config, self.embedding, self.blocks, self.norm,
                             self.tokenizer, attention, self.eos_id)

    # --- text ⇄ token ids ------------------------------------------------------------------

    def encode(self, text):
        """The token ids of ``text`` (list of int); no special token is added."""
        if not isinstance(text, str):
            raise TypeError(f"encode takes a str; got {type(text).__name__}")
        try:
            return self.tokenizer.encode(text, add_special_tokens=False).ids
        except TypeError:  # tokenizers' message for a str that is not valid UTF-8
            raise ValueError("the text is not valid Unicode (a lone surrogate such as "
                             "'\\ud800'?): it has no UTF-8 bytes to tokenize") from None

    def decode(self, ids):
        """The text of the token ids (control tokens such as <|im_end|> written out)."""
        return self.tokenizer.decode(self._check_ids(ids), skip_special_tokens=False)

    def token_strings(self, ids):
        """Each token's own text, for labels: "Ġcat" is shown as " cat"."""
        return [self.tokenizer.decode([i], skip_special_tokens=False)
                for i in self._check_ids(ids)]

    def position_of(self, ids, word):
        """The position of the first token of ``ids`` that is ``word`` (spaces aside).

        For the weight one word puts on another: ``weight_on(A, lm.position_of(ids, "it"),
        lm.position_of(ids, "cat"))`` (:func:`course_lib.heads.weight_on`).
        """
        tokens = [t.strip() for t in self.token_strings(ids)]
        if word.strip() not in tokens:
            raise ValueError(f"{word!r} is not one of the tokens {tokens} (a longer word may "
                             "be cut into several tokens)")
        return tokens.index(word.strip())

    # --- the forward pass -------------------------------------------------------------------

    def forward(self, ids, cache, scale, weights=None, last_only=False):
        """Logits (n, vocab) of the n new tokens ``ids``, which follow the cache's tokens.

        Fills the cache with their keys and values. ``scale`` multiplies the scores. With a
        list ``weights``, each layer's attention weights (H, n, m) are appended to it.
        """
        with _one_blas_thread():
            return self._forward(ids, cache, scale, weights, last_only)

    def _forward(self, ids, cache, scale, weights, last_only):
        c = self.config
        n, start = len(ids), cache.length
        if start + n > cache.capacity:
            raise ValueError(f"the cache holds {cache.capacity} tokens: {start} cached and "
                             f"{n} new do not fit (make a larger one with new_cache)")
        x = self.embedding[ids]  # (n, width)
        cos, sin = rotary_cos_sin(np.arange(start, start + n), c.head_dim, c.rope_base)
        cos, sin = cos.astype(np.float32), sin.astype(np.float32)  # (n, d) each, every layer
        mask = causal_mask(n, start + n, align="bottom-right")  # (n, m): the cache's past
        for layer, block in enumerate(self.blocks):
            h = rms_norm(x, block.attn_norm, c.eps)
            x = x + self._attention(block, h, cache, layer, cos, sin, mask, scale, weights)
            h = rms_norm(x, block.mlp_norm, c.eps)
            x = x + self._feed_forward(block, h)
        cache.length += n
        x = rms_norm(x[-1:] if last_only else x, self.norm, c.eps)
        return x @ self.head  # (n, vocab): the head is the embedding, tied

    def _attention(self, block, x, cache, layer, cos, sin, mask, scale, weights):
        c = self.config
        n, H, G, d = len(x), c.num_heads, c.num_kv_heads, c.head_dim
        q, k, v = np.split(x @ block.w_qkv.T, [H * d, (H + G) * d], axis=-1)  # (n, ·) each
        q = q.reshape(n, H, d).transpose(1, 0, 2)  # (H, n, d)
        k = k.reshape(n, G, d).transpose(1, 0, 2)  # (G, n, d)
        v = v.reshape(n, G, d).transpose(1, 0, 2)  # (G, n, d)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)  # positions start … start + n − 1
        keys, values = cache.extend(layer, k, v)  # (G, m, d): every token so far
        if self.attention is None:  # query head h reads kv head h // 3: broadcast, not copied
            out, a = attention_formula(q.reshape(G, H // G, n, d), keys[:, None],
                                       values[:, None], mask, scale)  # (G, H/G, n, ·)
            out, a = out.reshape(H, n, d), a.reshape(H, n, -1)  # (H, n, d), (H, n, m)
        else:  # the learner's function gets every query head's own copy, (H, m, d)
            keys, values = np.repeat(keys, H // G, axis=0), np.repeat(values, H // G, axis=0)
            out = self._learners_attention(q, keys, values, mask)
            a = None if weights is None else attention_formula(q, keys, values, mask, scale)[1]
        if weights is not None:
            weights.append(a)
        return out.transpose(1, 0, 2).reshape(n, H * d) @ block.w_out.T  # (n, width)

    def _learners_attention(self, q, keys, values, mask):
        out = np.asarray(self.attention(q, keys, values, mask), dtype=np.float32)
        if out.shape != q.shape:
            raise ValueError(f"the attention function returned shape {out.shape}; expected "
                             f"(H, n, d_v) = {q.shape} for query {q.shape}, key {keys.shape}, "
                             f"value {values.shape}, mask {mask.shape}")
        return out

    def _feed_forward(self, block, x):
        gate, up = np.split(x @ block.w_gate_up.T, 2, axis=-1)  # (n, hidden) each
        return (silu(gate) * up) @ block.w_down.T  # SwiGLU: (n, width)

    # --- what a notebook asks for ------------------------------------------------------------

    def logits(self, ids, *, scale=None):
        """(len(ids), vocab) float32: row t scores every possible token after ids[0 … t].

        ``scale`` multiplies the attention scores of every head (default 1/√d_k = 1/8).
        """
        ids = self._check_ids(ids, minimum=1)
        return self.forward(ids, self.new_cache(len(ids)), self._scale(scale))

    def attention_weights(self, ids, *, scale=None):
        """(layers, heads, n, n): the weights A of every head on the tokens ``ids``.

        Row i of a head's grid holds how much query i takes from each key j; it sums to 1 and
        is 0 above the diagonal (a token sees only itself and the past).
        """
        ids = self._check_ids(ids, minimum=1)
        weights = []
        self.forward(ids, self.new_cache(len(ids)), self._scale(scale), weights=weights)
        return np.stack(weights)  # (layers, H, n, n)

    def perplexity(self, text, *, scale=None):
        """The model's perplexity on ``text`` (see :func:`perplexity`)."""
        ids = self.encode(text)
        return perplexity(self.logits(ids, scale=scale), ids)

    def generate_ids(self, prompt, max_new_tokens=30, *, temperature=0.0, rng=None, scale=None):
        """The new token ids after ``prompt`` (text or ids), up to <|im_end|> (not included).

        ``temperature`` 0 takes the most likely token each time (greedy); above 0 it draws
        from softmax(logits / temperature) with ``rng`` (a seed or a numpy Generator).
        """
        ids = self._check_ids(self.encode(prompt) if isinstance(prompt, str) else prompt, 1)
        max_new_tokens = check_count(max_new_tokens, "max_new_tokens", minimum=0)
        rng = _check_sampling(temperature, rng)
        scale = self._scale(scale)
        cache = self.new_cache(len(ids) + max_new_tokens)
        new = []
        logits = self.forward(ids, cache, scale, last_only=True)[0]  # prefill: the prompt
        while len(new) < max_new_tokens:
            token = next_token(logits, temperature, rng)
            if token == self.eos_id:
                break
            new.append(token)
            if len(new) < max_new_tokens:
                logits = self.forward([token], cache, scale, last_only=True)[0]  # one step
        return new

    def generate(self, prompt, max_new_tokens=30, **options):
        """The continuation of ``prompt`` as text (greedy unless ``temperature`` > 0)."""
        return self.decode(self.generate_ids(prompt, max_new_tokens, **options))

    def chat(self, messages, max_new_tokens=60, **options):
        """The assistant's reply to ``messages`` (see :func:`chat_prompt`), as text."""
        return self.generate(chat_prompt(messages), max_new_tokens, **options)

    # --- memory ----------------------------------------------------------------------------

    @property
    def shape(self):
        """The attention shape (:class:`course_lib.kv_memory.ModelShape`)."""
        c = self.config
        return ModelShape("SmolLM2-135M", c.num_layers, c.num_heads, c.num_kv_heads,
                          c.head_dim)

    def kv_cache_bytes(self, tokens=1, bytes_per_number=4):
        """Bytes the KV cache holds for ``tokens`` tokens (float32 here: 4 bytes a number)."""
        c = self.config
        return kv_cache_bytes(tokens, c.num_layers, c.num_kv_heads, c.head_dim,
                              bytes_per_number)

    def decode_step_bytes(self, tokens_in_cache):
        """Bytes one generated token reads: every weight matrix once (the embedding as the
        head; looking up one token's row is negligible) and the whole KV cache."""
        weights = sum(w.nbytes for block in self.blocks for w in block) + self.norm.nbytes
        return weights + self.embedding.nbytes + self.kv_cache_bytes(tokens_in_cache)

    # --- the door ------------------------------------------------------------------------------

    def new_cache(self, capacity):
        """An empty :class:`Cache` for ``capacity`` tokens."""
        if capacity > self.config.context_length:
            raise ValueError(f"{capacity} tokens do not fit the model's context of "
                             f"{self.config.context_length}")
        return Cache(self.config, capacity)

    def _scale(self, scale):
        if scale is not None and self.attention is not None:
            raise ValueError("scale= changes the course's attention; a learner's attention "
                             "function applies its own scale (load the model without "
                             "attention=, or change the scale inside your function)")
        return check_scale(scale, self.config.head_dim)

    def _check_ids(self, ids, minimum=0):
        ids = np.asarray(ids)
        if ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
            raise TypeError(f"token ids must be a list of integers; got shape {ids.shape}, "
                            f"dtype {ids.dtype}")
        if len(ids) < minimum:
            raise ValueError("no token ids: give at least one token (encode some text)")
        if ids.size and (ids.min() < 0 or ids.max() >= self.config.vocab_size):
            raise ValueError(f"token ids must lie in 0 … {self.config.vocab_size - 1}; got "
                             f"{int(ids.min())} … {int(ids.max())}")
        return ids.astype(np.int64).tolist()


def next_token(logits, temperature, rng):
    """The next token: the largest logit (temperature 0), or drawn from softmax(logits / T)."""
    if temperature == 0:
        return int(np.argmax(logits))
    p = softmax(np.asarray(logits, dtype=np.float64) / temperature)  # (vocab,), sums to 1
    return int(rng.choice(len(p), p=p))


def _check_sampling(temperature, rng):
    if isinstance(temperature, bool) or not isinstance(temperature, Real) or not (
            0 <= temperature < float("inf")):
        raise ValueError(f"temperature must be a number ≥ 0 (0: greedy); got {temperature!r}")
    if temperature == 0:
        return None
    if rng is None:
        raise ValueError("sampling with temperature > 0 needs rng= (a seed such as 0, or "
                         "np.random.default_rng(0)), so that the text can be reproduced")
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


# --- loading --------------------------------------------------------------------------------

def load_model(path=None, *, attention=None):
    """Load SmolLM2-135M-Instruct from its GGUF file; a :class:`LanguageModel`.

    Parameters
    ----------
    path : the .gguf file; default :func:`course_lib.model_file.model_path` (``make model``
        puts it there). A missing or damaged file raises an error that says how to get it.
    attention : None, or a learner's attention function (see :class:`LanguageModel`).

    The weights are dequantized to float32 (about 540 MB), W_Q and W_K un-permuted
    (:func:`unpermute_rows`).
    """
    file = read_model_file(path)
    fields = file.metadata

    def raw(name):
        info = file.tensors[name]
        return np.frombuffer(file.data, np.uint8, info.nbytes, info.offset), info  # a view

    def weight(name, out=None):
        data, info = raw(name)
        return dequantize(data, info.kind, info.shape, out=out)  # float32 (out, in)

    config = Config(
        num_layers=fields["llama.block_count"], width=fields["llama.embedding_length"],
        num_heads=fields["llama.attention.head_count"],
        num_kv_heads=fields["llama.attention.head_count_kv"],
        head_dim=fields["llama.embedding_length"] // fields["llama.attention.head_count"],
        hidden=fields["llama.feed_forward_length"], vocab_size=fields["llama.vocab_size"],
        rope_base=float(fields["llama.rope.freq_base"]),
        eps=float(fields["llama.attention.layer_norm_rms_epsilon"]),
        context_length=fields["llama.context_length"])
    try:
        tokenizer = build_tokenizer(fields["tokenizer.ggml.tokens"],
                                    fields["tokenizer.ggml.merges"],
                                    fields["tokenizer.ggml.token_type"])
    except ImportError:
        raise ImportError("the model needs the tokenizers package: run `make install` (or pip "
                          "install -r requirements.txt -c requirements-lock.txt)") from None
    # Each weight is dequantized straight into its place in the stacked matrices (W_Q, W_K,
    # W_V; gate, up) and the embedding straight into the output head's layout: no copies of
    # the 540 MB afterwards (loading took a third longer with them).
    width, d = config.width, config.head_dim
    q_rows, kv_rows = config.num_heads * d, config.num_kv_heads * d
    blocks = []
    for i in range(config.num_layers):
        def w(part, out=None, i=i):
            return weight(f"blk.{i}.{part}.weight", out)
        w_qkv = np.empty((q_rows + 2 * kv_rows, width), np.float32)
        w_qkv[:q_rows] = unpermute_rows(w("attn_q"), config.num_heads)
        w_qkv[q_rows:q_rows + kv_rows] = unpermute_rows(w("attn_k"), config.num_kv_heads)
        w("attn_v", w_qkv[q_rows + kv_rows:])
        w_gate_up = np.empty((2 * config.hidden, width), np.float32)
        w("ffn_gate", w_gate_up[:config.hidden])
        w("ffn_up", w_gate_up[config.hidden:])
        blocks.append(Block(w("attn_norm"), w_qkv, w("attn_output"), w("ffn_norm"), w_gate_up,
                            w("ffn_down")))
    return LanguageModel(config, _embedding_as_head(*raw("token_embd.weight")).T, blocks,
                         weight("output_norm.weight"), tokenizer, attention,
                         fields["tokenizer.ggml.eos_token_id"])


def _embedding_as_head(data, info, rows=64):
    """The (vocab, width) embedding dequantized into its transpose, (width, vocab) contiguous:
    ``rows`` tokens at a time, each piece transposed while it is still in the cache (a third
    of the time of dequantizing it whole, then ``np.ascontiguousarray(embedding.T)``)."""
    vocab, width = info.shape
    head = np.empty((width, vocab), np.float32)
    row_bytes = info.nbytes // vocab
    piece = np.empty((rows, width), np.float32)
    for start in range(0, vocab, rows):
        count = min(rows, vocab - start)
        chunk = data[start * row_bytes:(start + count) * row_bytes]
        head[:, start:start + count] = dequantize(chunk, info.kind, (count, width),
                                                  out=piece[:count]).T
    return head


def dequantize(raw, kind, shape, out=None):
    """The float32 numbers of one tensor from its bytes in the file, as ggml defines them.

    Q4_1 and Q8_0 store blocks of 32 numbers, each with its own float16 scale d:

    - Q4_1 (20 bytes): d, a float16 minimum m, then 16 bytes of 4-bit q ∈ 0 … 15 (byte j holds
      q_j in its low half and q_{j+16} in its high half); each number is d·q + m.
    - Q8_0 (34 bytes): d, then 32 int8 q; each number is d·q.
    - F32 and F16 store the numbers themselves.

    Parameters
    ----------
    raw : (nbytes,) uint8, the tensor's bytes; kind : "F32", "F16", "Q4_1" or "Q8_0";
    shape : the tensor's shape, NumPy's order. Returns a new float32 array of that shape, or
    writes into ``out`` (a C-contiguous float32 array of that shape) and returns it.

    >>> block = np.array([0, 60, 0, 188] + [0x21] * 16, np.uint8)   # d = 1, m = −1
    >>> dequantize(block, "Q4_1", (32,))[[0, 16]].tolist()          # q = 1, then q = 2
    [0.0, 1.0]
    """
    shape = tuple(shape)
    if out is None:
        out = np.empty(shape, np.float32)
    elif out.shape != shape or out.dtype != np.float32 or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous float32 array of shape {shape}")
    if kind in ("F32", "F16"):
        out[...] = raw.view(np.float32 if kind == "F32" else np.float16).reshape(shape)
        return out
    blocks = raw.reshape(-1, TENSOR_TYPES[kind][2])  # (blocks, bytes per block)
    d = blocks[:, 0:2].view(np.float16).astype(np.float32)  # (blocks, 1)
    if kind == "Q8_0":
        x = out.reshape(len(blocks), 32)  # (blocks, 32), a view of out
        x[...] = blocks[:, 2:].view(np.int8)
        x *= d
        return out
    m = blocks[:, 2:4].view(np.float16).astype(np.float32)  # (blocks, 1)
    x = out.reshape(len(blocks), 2, 16)  # low halves, then high halves
    np.bitwise_and(blocks[:, 4:], 15, out=x[:, 0], casting="unsafe")
    np.right_shift(blocks[:, 4:], 4, out=x[:, 1], casting="unsafe")
    x = x.reshape(len(blocks), 32)
    x *= d
    x += m
    return out


@functools.cache
def _blas_controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()  # finds the loaded BLAS once (a few ms)


@contextmanager
def _one_blas_thread():
    """BLAS held to one thread for a forward pass, the previous setting restored after.

    A decoding step multiplies one row by each weight matrix: reading the weights bounds it,
    and a second BLAS thread gains little. On a busy machine (a shared Binder, a test run on
    every core) OpenBLAS's threads wait for each other: a (1, 576) × (576, 3072) product took
    14 ms on two threads against 0.47 ms on one here.
    """
    try:
        controller = _blas_controller()
    except ImportError:  # threadpoolctl is a learner requirement; without it, BLAS as it is
        yield
        return
    with controller.limit(limits=1, user_api="blas"):
        yield


def build_tokenizer(tokens, merges, token_types):
    """The model's byte-level BPE tokenizer (a ``tokenizers.Tokenizer``), from the file.

    As llama.cpp's ``smollm`` pre-tokenizer: every digit is split off first, then GPT-2's
    byte-level rule cuts words; the merges, most frequent pair first, build tokens from bytes.
    Control tokens (type 3: <|im_start|>, <|im_end|>, …) are special: written in a text they
    become one token each.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    vocab = {token: i for i, token in enumerate(tokens)}
    pairs = [tuple(merge.split(" ", 1)) for merge in merges]  # "Ġ t" → ("Ġ", "t")
    tokenizer = Tokenizer(models.BPE(vocab, pairs))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False)])
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_special_tokens([AddedToken(token, special=True, normalized=False)
                                  for token, kind in zip(tokens, token_types, strict=True)
                                  if kind == CONTROL])
    return tokenizer
