"""The real model of notebook 17: speed and memory of course_lib.model, beside transformers.

In one run, where PyTorch and transformers are installed, each on the same GGUF file:

* one generated token: the forward pass of one new token after a 240-token prompt, its KV
  cache reused (ours: ``LanguageModel.forward``; transformers: ``LlamaForCausalLM`` with a
  ``DynamicCache``), last position's logits only. Target: at most 0.6× transformers';
* the prefill: the forward pass of a 240-token prompt into an empty cache. Target: at most
  0.9× transformers';
* load time and memory, in a fresh process: after loading, and the peak (loading, then a
  240-token prefill and 30 generated tokens). Target: peak at most 1 GiB;
* the dashboard of notebook 17: a head-slider move (another head of the same run: under
  30 ms, as every dashboard) and a new sentence (the model runs once).

Both run float32 on the CPU with their default threads (NumPy's OpenBLAS and PyTorch each
use every core here; the numbers printed say how many). Timing: rounds of bursts, best call
(``timing.py``): compare the ratios of one run, not seconds across runs. The targets are on
wall-clock time; the CPU-time ratio beside them (every thread's CPU seconds) is less moved
by other programs on a busy machine.

Run: ``python benchmarks/bench_model.py`` (or ``make bench``); needs the model (``make model``).
"""

import json
import os
import subprocess
import sys
import time

from timing import best_of_bursts

from course_lib.scaling import default_scale

PROMPT_TOKENS = 240
ROUNDS = 4
TEXT = ("Attention lets every token of a sentence look at the tokens before it. Each token "
        "asks a question with its query, every earlier token answers with its key, and the "
        "softmax of the scores decides how much of each value flows back. ")

MEMORY_SCRIPT = """
import json, resource, sys, time
from course_lib.model import load_model
start = time.perf_counter()
lm = load_model()
load_s = time.perf_counter() - start
def mib(kb):  # ru_maxrss: KiB on Linux, bytes on macOS
    return kb / 1024 / (1024 if sys.platform == "darwin" else 1)
def now_mib():
    try:
        return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
    except OSError:
        return None
after = now_mib()
peak_load = mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
ids = (lm.encode(sys.argv[1]) * 20)[:240]
lm.generate_ids(ids, 30)
print(json.dumps({"load_s": load_s, "after_mib": after, "peak_load_mib": peak_load,
                  "peak_mib": mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)}))
"""


def memory_and_load():
    """Load time and memory of a fresh process that loads the model and generates."""
    out = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, TEXT], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def course_runs(lm, ids):
    """{name: function} for our prefill and our one-token step after the prompt."""
    scale = default_scale(lm.config.head_dim)  # 1/√d_k, as the model was trained
    step_cache = lm.new_cache(len(ids) + 1)
    lm.forward(ids, step_cache, scale, last_only=True)

    def prefill():
        lm.forward(ids, lm.new_cache(len(ids)), scale, last_only=True)

    def step():
        step_cache.length = len(ids)  # the prompt stays; the new token's row is rewritten
        lm.forward([ids[-1]], step_cache, scale, last_only=True)

    return {"ours prefill": prefill, "ours step": step}


def transformers_runs(ids):
    """The same two calls in transformers, or None where it (or PyTorch) is not installed."""
    try:
        import torch
        from transformers import AutoModelForCausalLM, DynamicCache
    except ImportError:
        return None, None
    from course_lib.model_file import check_model_file

    path = check_model_file()
    model = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name,
                                                 dtype=torch.float32).eval()
    prompt = torch.tensor([ids])
    last = torch.tensor([[ids[-1]]])
    with torch.no_grad():
        step_cache = DynamicCache(config=model.config)
        model(prompt, past_key_values=step_cache, use_cache=True, logits_to_keep=1)

    def prefill():
        with torch.no_grad():
            model(prompt, past_key_values=DynamicCache(config=model.config), use_cache=True,
                  logits_to_keep=1)

    def step():
        with torch.no_grad():
            extra = step_cache.get_seq_length() - len(ids)  # the last call's new token
            if extra:
                step_cache.crop(-extra)  # the prompt stays; the new token is computed again
            model(last, past_key_values=step_cache, use_cache=True, logits_to_keep=1)

    versions = f"transformers {__import__('transformers').__version__}, torch " \
               f"{torch.__version__} on {torch.get_num_threads()} threads"
    return {"transformers prefill": prefill, "transformers step": step}, versions


def dashboard_times(lm):
    """(ms per head-slider move, ms per new sentence), medians."""
    from course_lib.widgets.model import head_dashboard

    dash = head_dashboard(lm)
    moves = []
    for i in range(30):
        start = time.perf_counter()
        dash.controls["head"].value = (i + 1) % lm.config.num_heads
        moves.append(time.perf_counter() - start)
    sentences = []
    for i, text in enumerate(["The dog chased the ball across the yard.",
                              "She gave him the book because he asked.",
                              "Paris is the capital of France, and Rome of Italy.",
                              "One, two, three, four, five, six, seven."]):
        start = time.perf_counter()
        dash.controls["sentence"].value = text + " " * i
        sentences.append(time.perf_counter() - start)
    return 1000 * sorted(moves)[len(moves) // 2], 1000 * sorted(sentences)[len(sentences) // 2]


def main():
    import matplotlib

    matplotlib.use("Agg")
    from threadpoolctl import threadpool_info

    from course_lib.model import load_model

    memory = memory_and_load()
    lm = load_model()
    ids = (lm.encode(TEXT) * 20)[:PROMPT_TOKENS]
    runs = course_runs(lm, ids)
    theirs, versions = transformers_runs(ids)
    runs.update(theirs or {})
    times = best_of_bursts(runs, ROUNDS)  # name → (best wall, best CPU seconds)
    best = {name: wall for name, (wall, _) in times.items()}
    move_ms, sentence_ms = dashboard_times(lm)
    blas = ", ".join(f"{i['internal_api']} {i['num_threads']} threads" for i in threadpool_info())

    print(f"SmolLM2-135M-Instruct, float32, {PROMPT_TOKENS}-token prompt, {os.cpu_count()} CPUs; "
          f"NumPy's BLAS: {blas}")
    print(f"{'':<30} {'ours':>10} {'transformers':>13} {'ratio':>7}  target   (CPU-time ratio)")
    targets = []
    for label, key, limit in (("one generated token", "step", 0.6),
                              (f"prefill of {PROMPT_TOKENS} tokens", "prefill", 0.9)):
        ours = best[f"ours {key}"]
        if theirs is None:
            print(f"{label:<30} {1000 * ours:>7.1f} ms {'-':>13} {'-':>7}  (no transformers)")
            continue
        other = best[f"transformers {key}"]
        cpu = times[f"ours {key}"][1] / times[f"transformers {key}"][1]
        print(f"{label:<30} {1000 * ours:>7.1f} ms {1000 * other:>10.1f} ms "
              f"{ours / other:>6.2f}×  ≤ {limit}×   ({cpu:.2f}×)")
        targets.append((f"model: {label}, ours / transformers", ours / other, limit))
    print(f"load: {memory['load_s']:.1f} s; memory after loading {memory['after_mib']:.0f} MiB, "
          f"peak while loading {memory['peak_load_mib']:.0f} MiB, peak after a prefill and 30 "
          f"tokens {memory['peak_mib']:.0f} MiB (target ≤ 1024 MiB)")
    print(f"dashboard of notebook 17: {move_ms:.1f} ms per head-slider move (target < 30 ms), "
          f"{sentence_ms:.0f} ms per new sentence (the model runs)")
    print(versions or "transformers or PyTorch not installed: ours only")
    targets += [("model: peak memory, GiB", memory["peak_mib"] / 1024, 1.0),
                ("model dashboard: ms per head-slider move", move_ms, 30.0)]
    return targets


if __name__ == "__main__":
    for target in main():
        print(target)
