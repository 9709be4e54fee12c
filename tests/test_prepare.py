"""prepare_attention, the one check at the door of every attention function."""

import numpy as np
import pytest

from course_lib import causal_mask, to_numpy
from course_lib.prepare import Prepared, prepare_attention


def qkv(xp, n=3, m=5, d_k=4, d_v=2, dtype=np.float64):
    rng = np.random.default_rng(0)
    return tuple(xp.asarray(rng.standard_normal(shape).astype(dtype))
                 for shape in ((n, d_k), (m, d_k), (m, d_v)))


def test_is_causal_becomes_the_causal_mask(xp):
    p = prepare_attention(*qkv(xp, n=3, m=5), is_causal=True)
    assert isinstance(p, Prepared) and p.xp is xp
    np.testing.assert_array_equal(to_numpy(p.mask), to_numpy(causal_mask(3, 5)))


def test_tiled_attention_may_keep_the_causal_flag_without_the_grid(xp):
    assert prepare_attention(*qkv(xp), is_causal=True, causal_as_mask=False).mask is None


@pytest.mark.parametrize(("given", "computed", "returned"), [
    (np.float16, np.float32, np.float16),
    (np.float32, np.float32, np.float32),
    (np.int64, np.float64, np.float64),
])
def test_the_dtype_rule(xp, given, computed, returned):
    q, k, v = (xp.asarray(np.ones(shape, dtype=given)) for shape in ((2, 4), (3, 4), (3, 1)))
    p = prepare_attention(q, k, v, attn_mask=xp.zeros((2, 3)))
    assert p.query.dtype == p.key.dtype == p.value.dtype == p.mask.dtype == computed
    assert p.out_dtype == returned


def test_default_scale_is_one_over_root_d_k(xp):
    assert prepare_attention(*qkv(xp, d_k=16)).scale == 0.25
    assert prepare_attention(*qkv(xp, d_k=16), scale=2.0).scale == 2.0


def test_grad_output_is_checked_and_broadcast(xp):
    q, k, v = qkv(xp, n=3, d_v=2)
    p = prepare_attention(q, k, v, grad_output=xp.ones((1, 2), dtype=np.float32))
    assert p.grad_output.shape == (3, 2) and p.grad_output.dtype == np.float64
    with pytest.raises(ValueError, match=r"grad_output of shape \(4, 2\).*\(3, 2\)"):
        prepare_attention(q, k, v, grad_output=xp.ones((4, 2)))
    with pytest.raises(ValueError, match="grad_output contains NaN"):
        prepare_attention(q, k, v, grad_output=xp.full((3, 2), np.nan))


@pytest.mark.parametrize("kwargs", [{}, {"is_causal": True}, {"grad_output": np.ones((3, 2))},
                                    {"attn_mask": np.ones((3, 5), dtype=bool)}])
def test_the_array_library_is_chosen_once_at_the_door(monkeypatch, kwargs):
    """prepare_attention asks the backend once and passes the answer down: the checks it calls
    (validation, the mask) do not ask again."""
    import course_lib.backend
    from course_lib import masks, prepare, validation

    calls = []
    real = course_lib.backend.get_array_module

    def counted(*arrays):
        calls.append(len(arrays))
        return real(*arrays)

    for module in (prepare, validation, masks):
        monkeypatch.setattr(module, "get_array_module", counted)
    p = prepare_attention(*qkv(np), **kwargs)
    assert p.xp is np
    assert len(calls) == 1 + ("is_causal" in kwargs)  # causal_mask makes its grid like Q
    assert calls[0] == 3 + len(kwargs) - ("is_causal" in kwargs)  # Q, K, V and any mask or G


def test_the_door_reads_arrays_then_mask_then_scale(xp):
    """With several problems at once, the first in the formula's order is the one named."""
    q, k, v = qkv(xp)
    bad_mask = xp.asarray(np.ones((7, 7), dtype=bool))
    with pytest.raises(ValueError, match="key"):  # the arrays come first …
        prepare_attention(q, k[:, :2], v, attn_mask=bad_mask, scale=-1.0)
    with pytest.raises(ValueError, match="attn_mask"):  # … then the mask …
        prepare_attention(q, k, v, attn_mask=bad_mask, scale=-1.0)
    with pytest.raises(ValueError, match="scale"):  # … then the scale
        prepare_attention(q, k, v, scale=-1.0)
