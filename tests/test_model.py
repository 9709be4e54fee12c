"""course_lib.model against Hugging Face transformers' computation of the same file.

``tests/data/model_transformers.npz`` (made by ``tools/make_model_fixtures.py``) holds what
transformers computes from the GGUF file for a few prompts: the five largest logits at every
position, the last position's logits in full, its greedy continuation with the top-two gap
at every step, its tokenization of a few texts and its chat template. These are compared in
every run. Where transformers (with PyTorch) is installed, the live tests also compare on
prompts the fixture does not hold and check that the fixture is what the script makes now.

The model file comes from ``make model``; the ``smollm`` fixture (tests/conftest.py) loads it
once per run.
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib.model import (
    Block,
    LanguageModel,
    chat_prompt,
    perplexity,
    unpermute_rows,
)

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = np.load(ROOT / "tests" / "data" / "model_transformers.npz")
PROMPTS = sorted({key.split("/")[0] for key in FIXTURE.files} - {"tokenizer", "template", "meta"})
TOLERANCE = 1e-3  # logits; transformers' float32 sums run in another order
MIN_GAP = 0.02  # a greedy step whose two best logits are closer may flip under reordering
DIGIT_SPLIT_TEXT = "two spaces  1 before a digit"  # where transformers drops the digit split

try:
    import torch
    import transformers
except ImportError:
    torch = transformers = None


def learners_attention(query, key, value, mask):
    """Attention as a learner writes it from the formula, in plain NumPy."""
    d_k = query.shape[-1]
    scores = query @ key.transpose(0, 2, 1) / np.sqrt(d_k)  # (H, n, m)
    scores = np.where(mask, scores, -np.inf)  # blocked: weight 0
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)  # rows sum to 1
    return weights @ value  # (H, n, d_v)


def llama_cpp_permute(w, num_heads):
    """llama.cpp's converter's reordering of W_Q / W_K rows (its convert script, rewritten):
    per head, the rows (2, d/2) are stored as (d/2, 2)."""
    rows, width = w.shape
    return w.reshape(num_heads, 2, rows // num_heads // 2, width).swapaxes(1, 2).reshape(w.shape)


def test_the_fixture_holds_the_prompts_and_stays_small():
    assert PROMPTS == ["chat", "plain", "story"]
    # three full rows of 49152 float32 logits are most of it
    assert (ROOT / "tests" / "data" / "model_transformers.npz").stat().st_size < 600 * 1024


# ---------------------------------------------------------------------------------------------
# the recorded answers of transformers, in every run

@pytest.mark.parametrize("name", PROMPTS)
def test_logits_match_transformers(smollm, name):
    ids = FIXTURE[f"{name}/ids"]
    logits = smollm.logits(ids)
    assert logits.shape == (len(ids), smollm.config.vocab_size) and logits.dtype == np.float32
    top_ids = FIXTURE[f"{name}/top_ids"]
    ours = np.take_along_axis(logits, top_ids, axis=-1)  # (n, 5)
    np.testing.assert_allclose(ours, FIXTURE[f"{name}/top_logits"], atol=TOLERANCE, rtol=0)
    np.testing.assert_allclose(logits[-1], FIXTURE[f"{name}/last_logits"], atol=TOLERANCE,
                               rtol=0)
    assert np.array_equal(logits.argmax(axis=-1), top_ids[:, 0])  # the argmax everywhere


@pytest.mark.parametrize("name", PROMPTS)
def test_greedy_tokens_match_transformers(smollm, name):
    theirs, gap = FIXTURE[f"{name}/greedy_ids"], FIXTURE[f"{name}/greedy_gap"]
    close = np.flatnonzero(gap < MIN_GAP)
    steps = int(close[0]) if close.size else len(theirs)  # the steps that cannot flip
    assert steps >= min(20, len(theirs))
    ours = smollm.generate_ids(FIXTURE[f"{name}/ids"], max_new_tokens=len(theirs))
    if len(ours) < len(theirs):  # we stopped at <|im_end|>; transformers keeps it
        ours = [*ours, smollm.eos_id]
    assert ours[:steps] == theirs[:steps].tolist()


def test_chat_prompt_is_the_files_template():
    messages = [{"role": "user", "content": "What is the capital of France?"}]
    assert chat_prompt(messages) == str(FIXTURE["template/chat"])
    assert chat_prompt("What is the capital of France?") == str(FIXTURE["template/chat"])
    with_system = chat_prompt([{"role": "system", "content": "Be brief."}, *messages])
    assert with_system.startswith("<|im_start|>system\nBe brief.<|im_end|>\n")
    assert chat_prompt(messages, add_generation_prompt=False).endswith("<|im_end|>\n")


def test_the_chat_reply_is_the_recorded_one(smollm):
    reply_ids = FIXTURE["chat/greedy_ids"][:-1]  # without <|im_end|>
    reply = smollm.chat("What is the capital of France?", max_new_tokens=30)
    assert reply == smollm.decode(reply_ids) and "Paris" in reply


# ---------------------------------------------------------------------------------------------
# the tokenizer

def test_tokenizer_matches_transformers_except_the_digit_split(smollm):
    texts = json.loads(str(FIXTURE["tokenizer/texts"]))
    theirs = json.loads(str(FIXTURE["tokenizer/ids"]))
    assert len(texts) == len(theirs) >= 5
    for text, ids in zip(texts, theirs, strict=True):
        ours = smollm.encode(text)
        if text == DIGIT_SPLIT_TEXT:
            # the file's pre-tokenizer splits each digit off first, so "  " is one token and
            # "1" another; transformers' GGUF tokenizer ignores that step: " " + " 1"
            assert ours != ids
            assert "  " in smollm.token_strings(ours) and "1" in smollm.token_strings(ours)
            assert smollm.decode(ids) == smollm.decode(ours) == text
        else:
            assert ours == ids, text


def test_digits_are_split_one_by_one(smollm):
    assert smollm.token_strings(smollm.encode("2024")) == ["2", "0", "2", "4"]


def test_control_tokens_are_single_tokens_and_none_is_added(smollm):
    assert smollm.encode("<|im_start|>") == [1]
    assert smollm.encode("<|im_end|>") == [smollm.eos_id] == [2]
    assert smollm.encode("Hi")[0] not in (0, 1) and smollm.encode("") == []  # no BOS added
    assert smollm.token_strings(smollm.encode(" cat")) == [" cat"]


# The vocabulary holds 235 of the 256 bytes: six control characters and the UTF-8 lead bytes
# of Unicode planes 4-16 (U+40000 on, unassigned or private use) have no token, and the
# tokenizer drops them, as transformers' does. Every other text round-trips.
NO_TOKEN = "\x04\x06\x13\x14\x16\x1d"


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.characters(codec="utf-8", max_codepoint=0x3FFFF,
                                  exclude_characters=NO_TOKEN), max_size=40))
def test_tokenizer_round_trip(smollm, text):
    assert smollm.decode(smollm.encode(text)) == text


def test_bytes_without_a_token_are_dropped(smollm):
    assert smollm.decode(smollm.encode("a\x04b")) == "ab"
    assert smollm.encode("\U00040000") != [] and smollm.decode(smollm.encode("\U00040000")) \
        != "\U00040000"


def test_encode_refuses_what_is_not_text(smollm):
    with pytest.raises(TypeError, match="str"):
        smollm.encode([1, 2])
    with pytest.raises(ValueError, match="not valid Unicode"):
        smollm.encode("a\ud800b")
    with pytest.raises(ValueError, match="0 … 49151"):
        smollm.decode([49152])


# ---------------------------------------------------------------------------------------------
# the un-permutation of W_Q and W_K

@settings(max_examples=30, deadline=None)
@given(heads=st.integers(1, 4), half=st.integers(1, 4), width=st.integers(1, 3))
def test_unpermute_rows_undoes_llama_cpps_permutation(heads, half, width):
    w = np.arange(heads * 2 * half * width, dtype=float).reshape(heads * 2 * half, width)
    assert np.array_equal(unpermute_rows(llama_cpp_permute(w, heads), heads), w)
    if half > 1:  # with one pair per head the order is the same
        assert not np.array_equal(llama_cpp_permute(w, heads), w)


def test_without_the_unpermutation_the_logits_are_far_off(smollm):
    c = smollm.config
    q_rows, k_rows = c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim
    stored = []
    for block in smollm.blocks:  # the rows as the file stores them
        q, k, v = np.split(block.w_qkv, [q_rows, q_rows + k_rows])
        w_qkv = np.concatenate([llama_cpp_permute(q, c.num_heads),
                                llama_cpp_permute(k, c.num_kv_heads), v])
        stored.append(Block(*(w_qkv if f == "w_qkv" else getattr(block, f)
                              for f in Block._fields)))
    as_stored = LanguageModel(c, smollm.embedding, stored, smollm.norm, smollm.tokenizer)
    ids = FIXTURE["story/ids"]
    error = np.abs(as_stored.logits(ids)[-1] - FIXTURE["story/last_logits"]).max()
    assert error > 1.0  # not rounding: the scores pair the wrong slots
    assert np.abs(smollm.logits(ids)[-1] - FIXTURE["story/last_logits"]).max() < TOLERANCE


# ---------------------------------------------------------------------------------------------
# the forward pass: cache, attention weights, the learner's function, the scale

def test_cached_decoding_gives_the_logits_of_one_pass(smollm):
    ids = FIXTURE["story/ids"].tolist()
    whole = smollm.logits(ids)  # (n, vocab), one pass
    cache = smollm.new_cache(len(ids))
    rows = [smollm.forward(ids[:4], cache, 0.125)]  # prefill 4 tokens, then one at a time
    rows += [smollm.forward([token], cache, 0.125) for token in ids[4:]]
    assert cache.length == len(ids)
    np.testing.assert_allclose(np.concatenate(rows), whole, atol=1e-4, rtol=0)


def test_attention_weights_are_causal_rows_that_sum_to_one(smollm):
    ids = smollm.encode("The cat sat on the mat because it was tired.")
    n, c = len(ids), smollm.config
    weights = smollm.attention_weights(ids)
    assert weights.shape == (c.num_layers, c.num_heads, n, n)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, atol=1e-5)
    assert (weights >= 0).all()
    assert (weights[..., np.triu_indices(n, k=1)[0], np.triu_indices(n, k=1)[1]] == 0).all()
    assert np.allclose(weights[:, :, 0, 0], 1.0)  # the first token sees only itself


def test_a_learners_attention_function_gives_the_same_logits(smollm):
    ids = FIXTURE["plain/ids"]
    theirs = smollm.with_attention(learners_attention)
    logits = theirs.logits(ids)
    np.testing.assert_allclose(logits, smollm.logits(ids), atol=1e-4, rtol=0)
    np.testing.assert_allclose(logits[-1], FIXTURE["plain/last_logits"], atol=TOLERANCE, rtol=0)
    assert theirs.generate_ids(ids, 8) == FIXTURE["plain/greedy_ids"][:8].tolist()


def test_the_learners_function_sees_repeated_heads_and_a_boolean_mask(smollm):
    seen = []

    def spy(query, key, value, mask):
        seen.append((query.shape, key.shape, value.shape, mask.shape, mask.dtype))
        return learners_attention(query, key, value, mask)

    smollm.with_attention(spy).generate_ids([504, 3575, 282], max_new_tokens=2)
    c = smollm.config
    assert len(seen) == 2 * c.num_layers  # the prompt, then one new token
    assert seen[0] == ((9, 3, 64), (9, 3, 64), (9, 3, 64), (3, 3), np.dtype(bool))
    assert seen[-1] == ((9, 1, 64), (9, 4, 64), (9, 4, 64), (1, 4), np.dtype(bool))


def test_a_wrong_attention_function_changes_the_logits_or_is_refused(smollm):
    def unscaled(query, key, value, mask):  # forgot the √d_k
        return learners_attention(query * np.sqrt(query.shape[-1]), key, value, mask)

    ids = FIXTURE["plain/ids"]
    assert np.abs(smollm.with_attention(unscaled).logits(ids) - smollm.logits(ids)).max() > 1
    with pytest.raises(ValueError, match=r"returned shape \(9, 64\)"):
        smollm.with_attention(lambda q, k, v, mask: v[:, -1]).logits(ids)


def test_the_scale_multiplies_every_score(smollm):
    ids = FIXTURE["plain/ids"]
    np.testing.assert_array_equal(smollm.logits(ids, scale=0.125), smollm.logits(ids))
    assert np.abs(smollm.logits(ids, scale=1.0) - smollm.logits(ids)).max() > 1
    unscaled = smollm.attention_weights(ids, scale=1.0)
    scaled = smollm.attention_weights(ids)
    assert unscaled.max(axis=-1).mean() > scaled.max(axis=-1).mean()  # more peaked rows
    with pytest.raises(ValueError, match="own scale"):
        smollm.with_attention(learners_attention).logits(ids, scale=1.0)
    with pytest.raises(ValueError, match="positive"):
        smollm.logits(ids, scale=-1.0)


def test_perplexity_is_lowest_with_the_trained_scale(smollm):
    text = "The cat sat on the mat because it was tired. It slept all afternoon."
    trained = smollm.perplexity(text)
    assert 1 < trained < 200
    assert smollm.perplexity(text, scale=1.0) > 2 * trained  # no scale
    assert smollm.perplexity(text, scale=1 / 64) > 2 * trained  # ÷ d_k


def test_perplexity_known_answers():
    assert perplexity(np.zeros((3, 8)), [0, 1, 2]) == pytest.approx(8.0)
    sure = np.full((2, 4), -50.0)
    sure[0, 3] = 50.0  # row 0 puts all its probability on token 3
    assert perplexity(sure, [0, 3]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="at least 2 tokens"):
        perplexity(np.zeros((1, 4)), [0])


# ---------------------------------------------------------------------------------------------
# generation

def test_sampling_is_seeded_and_greedy_is_the_default(smollm):
    prompt = "Once upon a time"
    first = smollm.generate(prompt, 6, temperature=1.5, rng=7)
    assert smollm.generate(prompt, 6, temperature=1.5, rng=np.random.default_rng(7)) == first
    assert smollm.generate(prompt, 6, temperature=1.5, rng=8) != first
    greedy = smollm.generate(prompt, 6)
    assert smollm.generate(smollm.encode(prompt), 6, temperature=0) == greedy  # text or ids
    assert greedy == smollm.decode(smollm.generate_ids(prompt, 6))
    with pytest.raises(ValueError, match="rng="):
        smollm.generate(prompt, 3, temperature=0.7)
    with pytest.raises(ValueError, match="temperature"):
        smollm.generate(prompt, 3, temperature=-1)


def test_generate_stops_at_max_new_tokens_and_at_im_end(smollm):
    assert smollm.generate_ids("The capital of France is", 0) == []
    assert len(smollm.generate_ids("The capital of France is", 5)) == 5
    reply = smollm.generate_ids(chat_prompt("What is the capital of France?"), 30)
    assert len(reply) < 30 and smollm.eos_id not in reply


def test_the_cache_refuses_more_tokens_than_it_holds(smollm):
    with pytest.raises(ValueError, match="8192"):
        smollm.new_cache(9000)
    cache = smollm.new_cache(3)
    smollm.forward([1, 2], cache, 0.125)
    with pytest.raises(ValueError, match="holds 3 tokens: 2 cached and 2 new"):
        smollm.forward([3, 4], cache, 0.125)
    with pytest.raises(ValueError, match="at least one token"):
        smollm.generate("", 3)
    with pytest.raises(TypeError, match="function"):
        smollm.with_attention("softmax")


# ---------------------------------------------------------------------------------------------
# memory

def test_kv_cache_bytes_of_this_configuration(smollm):
    per_token = 2 * 30 * 3 * 64 * 4  # K and V × layers × kv heads × d_k × float32
    assert smollm.kv_cache_bytes() == per_token == 46_080
    assert smollm.kv_cache_bytes(100, bytes_per_number=2) == 100 * per_token // 2
    cache = smollm.new_cache(10)
    assert cache.key.nbytes + cache.value.nbytes == smollm.kv_cache_bytes(10)
    weights = sum(w.nbytes for b in smollm.blocks for w in b) + smollm.norm.nbytes
    assert smollm.decode_step_bytes(100) == weights + smollm.embedding.nbytes + 100 * per_token
    assert 500e6 < smollm.decode_step_bytes(0) < 560e6  # ~538 MB of float32 weights
    assert smollm.shape.num_kv_heads == 3 and smollm.shape.head_dim == 64


# ---------------------------------------------------------------------------------------------
# import weight

def test_importing_the_model_module_loads_neither_gguf_nor_tokenizers():
    code = ("import sys, course_lib, course_lib.model; "
            "print(sorted({'gguf', 'tokenizers', 'torch'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------------------------
# live, where transformers is installed

@pytest.fixture(scope="module")
def reference():
    if transformers is None:
        pytest.skip("transformers (with PyTorch) is not installed: live comparisons skipped "
                    "(tests/data/model_transformers.npz covers them)")
    import importlib.util

    from course_lib.model_file import check_model_file

    spec = importlib.util.spec_from_file_location("make_model_fixtures",
                                                  ROOT / "tools" / "make_model_fixtures.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    path = check_model_file()
    tokenizer, model = tool.load_reference(str(path.parent), path.name)
    return tool, tokenizer, model


LIVE_TEXTS = ["Attention is all you need, said the paper, and the", "def add(a, b):\n    return",
              "Water boils at 100 degrees Celsius at sea level, and at high altitude it"]


@pytest.mark.transformers
@pytest.mark.parametrize("text", LIVE_TEXTS)
def test_live_logits_and_tokens_match_transformers(smollm, reference, text):
    _, tokenizer, model = reference
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    assert smollm.encode(text) == ids
    with torch.no_grad():
        theirs = model(torch.tensor([ids])).logits[0].numpy()
    ours = smollm.logits(ids)
    np.testing.assert_allclose(ours, theirs, atol=TOLERANCE, rtol=0)
    assert np.array_equal(ours.argmax(axis=-1), theirs.argmax(axis=-1))


@pytest.mark.transformers
def test_live_the_fixture_is_what_the_script_makes(reference):
    tool, tokenizer, model = reference
    fresh = tool.build(tokenizer, model)
    assert sorted(fresh) == sorted(FIXTURE.files)
    for key, value in fresh.items():
        if key.startswith("meta/"):
            continue
        if value.dtype.kind == "f":
            np.testing.assert_allclose(value, FIXTURE[key], atol=1e-4, rtol=0, err_msg=key)
        else:
            assert np.array_equal(value, FIXTURE[key]), key
