"""Record what Hugging Face transformers computes from the model file: ``python
tools/make_model_fixtures.py``.

Needs the model file (``make model``) and, installed by hand (never in the lock), PyTorch,
transformers and accelerate: ``.venv/bin/pip install torch transformers accelerate``.
transformers reads the same GGUF file with its own loader
(``AutoModelForCausalLM.from_pretrained(folder, gguf_file=...)``: dequantized to float32, W_Q
and W_K un-permuted by its own code) and runs its own Llama in PyTorch. This script stores
its answers in ``tests/data/model_transformers.npz``; ``tests/test_model.py`` compares
``course_lib.model`` with them in every run, without PyTorch.

For each prompt of :data:`PROMPTS` (``"<name>/<array>"`` in the file):

* ``ids``: the prompt's token ids (transformers' tokenizer; the course's gives the same);
* ``top_ids``, ``top_logits`` (n, 5): the five largest logits at every position;
* ``last_logits`` (vocab,): the last position's logits in full;
* ``greedy_ids`` (up to 30): transformers' greedy continuation, and ``greedy_gap``: the
  gap between the largest and the second largest logit at each of its steps (a token whose
  gap is tiny may flip under any reordering of the sums; the test compares the steps before
  the first gap below 0.02).

``tokenizer/texts`` and ``tokenizer/ids`` (JSON strings): transformers' tokenization of
:data:`TOKENIZER_TEXTS`; ``template/chat``: its rendering of the file's chat template;
``meta/*``: the versions.
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "model_transformers.npz"
TOP = 5
GREEDY_TOKENS = 30

PROMPTS = {
    "plain": {"text": "The capital of France is"},
    "story": {"text": "Once upon a time, there was a little girl who"},
    "chat": {"messages": [{"role": "user", "content": "What is the capital of France?"}]},
}

# Plain text, a chat turn, code, digits, accents and emoji; the last one holds two spaces
# before a digit, where transformers' GGUF tokenizer drops the file's digit split.
TOKENIZER_TEXTS = [
    "The cat sat on the mat because it was tired.",
    "<|im_start|>user\nHello there!<|im_end|>\n<|im_start|>assistant\n",
    "def f(x):\n    return x ** 2  # squared\n",
    "In 1969, 12 people had walked on the Moon by 1972.",
    "Café, naïve, Zürich — déjà vu 🙂",
    "Scores are divided by √d_k: √64 = 8.",
    "two spaces  1 before a digit",
]


def load_reference(folder, filename):
    """transformers' tokenizer and model (float32, eval mode) read from the GGUF file."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=filename)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=filename,
                                                 dtype=torch.float32)
    return tokenizer, model.eval()


def prompt_ids(tokenizer, prompt):
    if "messages" in prompt:
        text = tokenizer.apply_chat_template(prompt["messages"], tokenize=False,
                                             add_generation_prompt=True)
    else:
        text = prompt["text"]
    return tokenizer(text, add_special_tokens=False)["input_ids"]


def build(tokenizer, model):
    """Every array of the fixture file, as a dict (computed, not yet written)."""
    import torch
    import transformers

    arrays = {}
    for name, prompt in PROMPTS.items():
        ids = prompt_ids(tokenizer, prompt)
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0].float().numpy()  # (n, vocab)
            out = model.generate(torch.tensor([ids]), attention_mask=torch.ones(1, len(ids)),
                                 max_new_tokens=GREEDY_TOKENS, do_sample=False,
                                 output_scores=True, return_dict_in_generate=True,
                                 pad_token_id=tokenizer.eos_token_id)
        top = np.argsort(-logits, axis=-1)[:, :TOP]  # (n, 5)
        scores = torch.stack(out.scores)[:, 0].float().numpy()  # (steps, vocab)
        best_two = np.sort(scores, axis=-1)[:, -2:]
        arrays.update({
            f"{name}/ids": np.array(ids, dtype=np.int64),
            f"{name}/top_ids": top.astype(np.int64),
            f"{name}/top_logits": np.take_along_axis(logits, top, axis=-1),
            f"{name}/last_logits": logits[-1],
            f"{name}/greedy_ids": out.sequences[0, len(ids):].numpy().astype(np.int64),
            f"{name}/greedy_gap": (best_two[:, 1] - best_two[:, 0]).astype(np.float32),
        })
    ids = [tokenizer(text, add_special_tokens=False)["input_ids"] for text in TOKENIZER_TEXTS]
    template = tokenizer.apply_chat_template(PROMPTS["chat"]["messages"], tokenize=False,
                                             add_generation_prompt=True)
    arrays.update({
        "tokenizer/texts": np.array(json.dumps(TOKENIZER_TEXTS)),
        "tokenizer/ids": np.array(json.dumps(ids)),
        "template/chat": np.array(template),
        "meta/transformers_version": np.array(transformers.__version__),
        "meta/torch_version": np.array(torch.__version__),
    })
    return arrays


def main():
    sys.path.insert(0, str(ROOT))
    from course_lib.model_file import check_model_file

    path = check_model_file()
    tokenizer, model = load_reference(str(path.parent), path.name)
    arrays = build(tokenizer, model)
    np.savez_compressed(DATA, **arrays)
    print(f"wrote {DATA.relative_to(ROOT)} ({DATA.stat().st_size / 1024:.0f} KiB)")
    for name in PROMPTS:
        gap = arrays[f"{name}/greedy_gap"]
        print(f"  {name}: {len(arrays[f'{name}/ids'])} prompt tokens, "
              f"{len(arrays[f'{name}/greedy_ids'])} greedy tokens, smallest top-two gap "
              f"{gap.min():.3f} at step {int(gap.argmin())}")


if __name__ == "__main__":
    main()
