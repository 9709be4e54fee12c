"""By-hand exercise of notebook 16: the KV cache's memory per token.

A model with 32 layers, 32 query heads and 8 key/value heads of d_k = 128 slots keeps its
cache in float32 (4 bytes per number). How many KiB (1 KiB = 1024 bytes) does one token add?
2 × 32 × 8 × 128 × 4 = 262144 bytes = 256 KiB.

Slips (by hand, KiB per token):

- keys only: the values forgotten, no factor 2 (128).
- bytes per number left out: numbers counted, not bytes (64).
- all query heads: 32 heads instead of the 8 key/value heads, or the model width 32 × 128
  (1024).
- one layer only: the 32 layers forgotten (8).
- bits instead of bytes: 32 bits per number instead of 4 bytes (2048).
- KiB as 1000 bytes: 262144 / 1000 (262.144).
- bytes, not KiB: the answer left in bytes (262144).
- MiB, not KiB: divided by 1024 twice (0.25).
- float64's 8 bytes (512); one key/value head (32); numbers, not KiB (65536).
- query and key/value heads: 32 + 8 heads counted for keys and values (1280).
"""

from .by_hand import HandExercise, Slip

__all__ = ["CACHE_MEMORY", "check_cache_memory"]

_BYTES = 2 * 32 * 8 * 128 * 4  # K and V × layers × key/value heads × d_k × bytes

CACHE_MEMORY = HandExercise(
    "the KiB one token adds to the cache (32 layers, 8 key/value heads, d_k = 128, float32)",
    answer=_BYTES / 1024,
    slips=[
        Slip("keys only", _BYTES / 2 / 1024,
             "{got} KiB is the keys alone. The cache keeps a key row AND a value row per "
             "head and layer: multiply by 2."),
        Slip("bytes per number left out", _BYTES / 4 / 1024,
             "{got} counts numbers (in units of 1024), not bytes: each float32 number takes 4 "
             "bytes."),
        Slip("all query heads", _BYTES * 4 / 1024,
             "{got} KiB caches all 32 query heads (32 × 128 = 4096, the model width). Only the "
             "8 key/value heads are cached: the query heads share them."),
        Slip("one layer only", _BYTES / 32 / 1024,
             "{got} KiB is one layer. Every one of the 32 layers keeps its own keys and values."),
        Slip("bits instead of bytes", _BYTES * 8 / 1024,
             "{got} uses 32 per number, the BITS of a float32. Memory is counted in bytes: 4 per "
             "float32 number."),
        Slip("KiB as 1000 bytes", _BYTES / 1000,
             "{got} divides by 1000. A KiB is 1024 bytes (2¹⁰); divide the bytes by 1024."),
        Slip("bytes, not KiB", float(_BYTES),
             "{got} is the right count in BYTES; the question asks for KiB: divide by 1024."),
        Slip("MiB, not KiB", _BYTES / 2**20,
             "{got} is in MiB: you divided by 1024 twice. 262144 bytes / 1024 gives KiB."),
        Slip("query and key/value heads", 2 * 32 * (32 + 8) * 128 * 4 / 1024,
             "{got} KiB counts the 32 query heads as well as the 8 key/value heads. Only keys "
             "and values are cached, 8 heads each: the query row is used once and thrown away."),
        Slip("float64's 8 bytes", _BYTES * 2 / 1024, "{got} counts 8 bytes a number (float64); "
             "the cache is float32, 4 bytes."),
        Slip("one key/value head", _BYTES / 8 / 1024, "{got} KiB is one key/value head; the "
             "model has 8 of them in every layer."),
        Slip("numbers, not KiB", _BYTES / 4, "{got} is the count of numbers, 2 × 32 × 8 × 128: "
             "times 4 bytes, then ÷ 1024 for KiB."),
    ],
    tolerance=0.5,
)


def check_cache_memory(value):
    """Print feedback on the KiB per token worked out by hand."""
    CACHE_MEMORY.check(value)
