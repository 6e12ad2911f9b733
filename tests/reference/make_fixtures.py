#!/usr/bin/env python3
"""Reference fixtures for TinyGPT: the same model, computed again in NumPy, independently of the Rust.

What it does
  1. Reads a GPT-2-shaped safetensors file (Hugging Face names, Conv1D layout [in, out], f32) that
     the Rust code wrote with `tblock init --seed S --out tests/reference/fixtures/tiny-gpt-seed-S.safetensors`.
     The file is parsed here by hand (8-byte little-endian header length, JSON header, raw data);
     the head count and the LayerNorm epsilon come from the config.json kept in its metadata.
  2. Runs GPT-2's forward pass in float64, written from the math (see `forward` below), for a few
     inputs, each with the causal mask on (decoder) and off (encoder).
  3. Writes fixtures/<name>.json: for each case the ids, the causal flag, `hidden` (the stream after
     the last block, before the final norm) [T][d] and `logits` [T][V].

The Rust test crate/tests/reference.rs loads the same weights file, runs TinyGPT, and requires every
number to match within 1e-5. CI needs only the committed .safetensors and .json files, not Python.

Besides the two files Rust wrote (seeds 0 and 7) there is a third, "stretched", made here from seed
7's: at GPT-2's initialisation (weights ~ N(0, 0.02²), gains 1, biases 0) attention is almost
uniform and every activation is small, so a bug that only bends the numbers a little (the wrong
attention scale, an unused bias or gain, a different epsilon) could hide under 1e-5. The stretched
file scales every matrix by 5 and gives each gain and bias its own non-trivial values, so those
bugs show up as differences far above the tolerance. Rust loads that file as any other checkpoint.

Before writing, the script checks its own model without Rust (see `self_checks`): softmax rows sum
to 1, a causal model's earlier rows ignore later tokens (and an encoder's do not), a one-token input
gives the same answer either way, and the vectorised attention agrees with a plain triple loop.

Usage (from the repository root; see tests/reference/README.md):
  python3 -m venv tests/reference/.venv
  tests/reference/.venv/bin/pip install -r tests/reference/requirements.txt
  tests/reference/.venv/bin/python tests/reference/make_fixtures.py            # write the fixtures
  tests/reference/.venv/bin/python tests/reference/make_fixtures.py --check    # recompute, compare, write nothing
  tests/reference/.venv/bin/python tests/reference/make_fixtures.py --init     # first re-create the seed files with cargo
"""

from __future__ import annotations

import argparse
import json
import math
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPO = HERE.parent.parent

# The Rust-written files: tiny-gpt-seed-{S}.safetensors.
SEEDS = [0, 7]
# The stretched file is derived from this seed's file.
STRETCH_FROM = 7
STRETCH_NAME = f"tiny-gpt-seed-{STRETCH_FROM}-stretched"

# The inputs every fixture holds, each run with causal = true and causal = false.
INPUTS = [
    [3, 1, 4, 1, 5],                                   # the lessons' example
    [0],                                               # one token: the mask makes no difference
    [(7 * i + 3) % 50 for i in range(16)],             # all 16 positions
    [49, 0, 49, 25, 7, 12, 49, 3],                     # the last id in the vocabulary, repeated
]

# Digits kept in the JSON: far below the 1e-5 the Rust test allows.
SIGNIFICANT = 10


# --------------------------------------------------------------------------------------------------
# safetensors, by hand


def read_safetensors(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Tensors (as float64 arrays) and the metadata of a safetensors file."""
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n].decode("utf-8"))
    data = raw[8 + n :]
    metadata = header.pop("__metadata__", {}) or {}
    tensors = {}
    for name, info in header.items():
        if info["dtype"] != "F32":
            raise ValueError(f"{path.name}: {name} has dtype {info['dtype']}; expected F32")
        start, end = info["data_offsets"]
        shape = tuple(info["shape"])
        if end - start != 4 * math.prod(shape):
            raise ValueError(f"{path.name}: {name} holds {end - start} bytes for shape {shape}")
        tensors[name] = np.frombuffer(data[start:end], dtype="<f4").reshape(shape).astype(np.float64)
    return tensors, metadata


def write_safetensors(path: Path, tensors: dict[str, np.ndarray], metadata: dict[str, str]) -> None:
    """Write f32 tensors, sorted by name, header padded with spaces to a multiple of 8 bytes."""
    header: dict[str, object] = {"__metadata__": metadata}
    blobs, offset = [], 0
    for name in sorted(tensors):
        blob = np.ascontiguousarray(tensors[name], dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


# --------------------------------------------------------------------------------------------------
# The model, from the math (GPT-2, pre-LN)


class Model:
    """GPT-2's weights by their Hugging Face names, and what the config adds."""

    def __init__(self, tensors: dict[str, np.ndarray], metadata: dict[str, str]):
        config = json.loads(metadata["config"])
        self.w = {k.removeprefix("transformer."): v for k, v in tensors.items()}
        self.n_head = int(config["n_head"])
        self.eps = float(config["layer_norm_epsilon"])
        self.n_layer = sum(1 for k in self.w if k.endswith(".ln_1.weight"))
        self.vocab, self.d = self.w["wte.weight"].shape
        self.positions = self.w["wpe.weight"].shape[0]
        assert self.n_layer == int(config["n_layer"]), "block count disagrees with the config"
        assert self.d % self.n_head == 0, "d_model must split evenly into heads"


def layer_norm(x, gain, bias, eps):
    """Each row to mean 0 and (biased) variance 1, then gain and bias."""
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gain + bias


def gelu_tanh(z):
    """GPT-2's GELU ("gelu_new"): 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3)))."""
    return 0.5 * z * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))


def softmax(s):
    """Softmax over the last axis; -inf entries get weight 0."""
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def conv1d(x, w, b=None):
    """GPT-2's Conv1D: w is [in, out], so y = x w + b."""
    y = x @ w
    return y if b is None else y + b


def attention(m: Model, prefix: str, x, causal: bool):
    """Multi-head self-attention on x [T, d]; returns the output [T, d] and the weights [H, T, T]."""
    t, d = x.shape
    h = m.n_head
    qkv = conv1d(x, m.w[f"{prefix}.c_attn.weight"], m.w.get(f"{prefix}.c_attn.bias"))  # [T, 3d]
    q, k, v = np.split(qkv, 3, axis=-1)  # each [T, d]
    # [T, d] -> [H, T, d/H]: head i owns columns i*d/H .. (i+1)*d/H.
    q, k, v = (a.reshape(t, h, d // h).transpose(1, 0, 2) for a in (q, k, v))
    scores = np.einsum("hik,hjk->hij", q, k) / math.sqrt(d // h)  # [H, T, T]
    if causal:
        scores = np.where(np.tril(np.ones((t, t), dtype=bool)), scores, -np.inf)
    weights = softmax(scores)
    out = np.einsum("hij,hjk->hik", weights, v)  # [H, T, d/H]
    joined = out.transpose(1, 0, 2).reshape(t, d)  # heads side by side
    return conv1d(joined, m.w[f"{prefix}.c_proj.weight"], m.w.get(f"{prefix}.c_proj.bias")), weights


def attention_loops(m: Model, prefix: str, x, causal: bool):
    """The same attention as three plain loops, to check the vectorised form above."""
    t, d = x.shape
    hd = d // m.n_head
    qkv = conv1d(x, m.w[f"{prefix}.c_attn.weight"], m.w.get(f"{prefix}.c_attn.bias"))
    joined = np.zeros((t, d))
    for head in range(m.n_head):
        q = qkv[:, head * hd : (head + 1) * hd]
        k = qkv[:, d + head * hd : d + (head + 1) * hd]
        v = qkv[:, 2 * d + head * hd : 2 * d + (head + 1) * hd]
        for i in range(t):
            seen = range(i + 1) if causal else range(t)
            s = [sum(q[i, c] * k[j, c] for c in range(hd)) / math.sqrt(hd) for j in seen]
            top = max(s)
            e = [math.exp(x - top) for x in s]
            total = sum(e)
            for j, ej in zip(seen, e):
                joined[i, head * hd : (head + 1) * hd] += ej / total * v[j]
    return conv1d(joined, m.w[f"{prefix}.c_proj.weight"], m.w.get(f"{prefix}.c_proj.bias"))


def forward(m: Model, ids: list[int], causal: bool, attention_fn=None):
    """ids [T] -> (hidden [T, d] before ln_f, logits [T, V], attention weights per layer)."""
    assert 1 <= len(ids) <= m.positions and all(0 <= i < m.vocab for i in ids)
    x = m.w["wte.weight"][ids] + m.w["wpe.weight"][: len(ids)]  # [T, d]
    all_weights = []
    for layer in range(m.n_layer):
        p = f"h.{layer}"
        a = layer_norm(x, m.w[f"{p}.ln_1.weight"], m.w[f"{p}.ln_1.bias"], m.eps)
        if attention_fn is None:
            a, weights = attention(m, f"{p}.attn", a, causal)
            all_weights.append(weights)
        else:
            a = attention_fn(m, f"{p}.attn", a, causal)
        x = x + a
        f = layer_norm(x, m.w[f"{p}.ln_2.weight"], m.w[f"{p}.ln_2.bias"], m.eps)
        f = conv1d(f, m.w[f"{p}.mlp.c_fc.weight"], m.w[f"{p}.mlp.c_fc.bias"])  # [T, 4d]
        f = conv1d(gelu_tanh(f), m.w[f"{p}.mlp.c_proj.weight"], m.w[f"{p}.mlp.c_proj.bias"])
        x = x + f
    hidden = x
    logits = layer_norm(x, m.w["ln_f.weight"], m.w["ln_f.bias"], m.eps) @ m.w["wte.weight"].T  # tied head
    return hidden, logits, all_weights


# --------------------------------------------------------------------------------------------------
# Checks of the NumPy model on its own


def self_checks(m: Model, name: str) -> None:
    ids = [3, 1, 4, 1, 5, 9, 2, 6]
    later = ids[:4] + [49, 0, 49, 0]
    for causal in (True, False):
        _, _, weights = forward(m, ids, causal)
        for w in weights:
            assert np.allclose(w.sum(axis=-1), 1.0, atol=1e-12), f"{name}: softmax rows do not sum to 1"
            assert (w >= 0).all()
            if causal:
                assert (np.triu(w, k=1) == 0).all(), f"{name}: a causal weight above the diagonal"
            else:
                assert (w > 0).all(), f"{name}: an encoder weight is 0"

    # Causal: changing tokens 4.. leaves rows 0..3 exactly as they were; an encoder's rows all move.
    h_a, l_a, _ = forward(m, ids, True)
    h_b, l_b, _ = forward(m, later, True)
    assert np.array_equal(h_a[:4], h_b[:4]) and np.array_equal(l_a[:4], l_b[:4]), f"{name}: causal leak"
    assert np.abs(l_a[4:] - l_b[4:]).max() > 0
    # A causal prefix run gives the same rows as the full run.
    h_p, l_p, _ = forward(m, ids[:4], True)
    assert np.allclose(h_p, h_a[:4], atol=1e-14, rtol=0) and np.allclose(l_p, l_a[:4], atol=1e-14, rtol=0)
    _, e_a, _ = forward(m, ids, False)
    _, e_b, _ = forward(m, later, False)
    assert np.abs(e_a[:4] - e_b[:4]).max(axis=1).min() > 0, f"{name}: encoder rows ignore later tokens"

    # One token sees only itself, mask or no mask.
    for t in (0, 49):
        c, e = forward(m, [t], True), forward(m, [t], False)
        assert np.array_equal(c[0], e[0]) and np.array_equal(c[1], e[1])

    # The vectorised attention against the triple loop.
    for causal in (True, False):
        h_v, l_v, _ = forward(m, ids, causal)
        h_l, l_l, _ = forward(m, ids, causal, attention_fn=attention_loops)
        assert np.abs(h_v - h_l).max() < 1e-12 and np.abs(l_v - l_l).max() < 1e-12, f"{name}: loops disagree"

    # The GELU at the points the lessons quote.
    assert abs(gelu_tanh(1.0) - 0.841192) < 1e-6 and gelu_tanh(0.0) == 0.0


# --------------------------------------------------------------------------------------------------
# The stretched file


def stretched(tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Seed 7's weights made far from the initialisation: every matrix x5 (std 0.1), and every gain
    and bias set from a smooth deterministic pattern (no random-number generator to drift)."""
    out = {}
    for k, (name, w) in enumerate(sorted(tensors.items())):
        if w.ndim == 2:
            out[name] = w * 5.0
        else:
            j = np.arange(w.shape[0])
            if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
                out[name] = 1.0 + 0.5 * np.sin(0.7 * j + k)
            else:  # LayerNorm and MLP biases
                out[name] = 0.2 * np.cos(1.3 * j + k)
    return out


# --------------------------------------------------------------------------------------------------
# Fixtures


def rounded(a: np.ndarray) -> list:
    return [[float(f"{v:.{SIGNIFICANT}g}") for v in row] for row in a]


def fixture(name: str, seed: int | None, derived_from: str | None) -> dict:
    tensors, metadata = read_safetensors(FIXTURES / f"{name}.safetensors")
    m = Model(tensors, metadata)
    self_checks(m, name)
    cases = []
    for ids in INPUTS:
        for causal in (True, False):
            hidden, logits, _ = forward(m, ids, causal)
            cases.append({"ids": ids, "causal": causal, "hidden": rounded(hidden), "logits": rounded(logits)})
    out = {
        "about": "Expected TinyGPT outputs, computed in float64 NumPy by tests/reference/make_fixtures.py "
        "from the weights file named here; hidden is the stream after the last block, before ln_f.",
        "seed": seed,
        "weights": f"{name}.safetensors",
    }
    if derived_from:
        out["derived_from"] = derived_from
    out.update({"n_head": m.n_head, "layer_norm_epsilon": m.eps, "cases": cases})
    return out


def dumps(fx: dict) -> str:
    """JSON with one matrix row per line: diffable, and not one number per line."""
    lines = ["{"]
    head = [k for k in fx if k != "cases"]
    for k in head:
        lines.append(f"  {json.dumps(k)}: {json.dumps(fx[k])},")
    lines.append('  "cases": [')
    for c, case in enumerate(fx["cases"]):
        lines.append("    {")
        lines.append(f'      "ids": {json.dumps(case["ids"])},')
        lines.append(f'      "causal": {json.dumps(case["causal"])},')
        for key in ("hidden", "logits"):
            rows = ",\n".join("        " + json.dumps(r) for r in case[key])
            lines.append(f'      "{key}": [\n{rows}\n      ]' + ("," if key == "hidden" else ""))
        lines.append("    }" + ("," if c + 1 < len(fx["cases"]) else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def largest_difference(a: dict, b: dict) -> float:
    worst = 0.0
    assert len(a["cases"]) == len(b["cases"]), "the number of cases differs"
    for ca, cb in zip(a["cases"], b["cases"]):
        assert ca["ids"] == cb["ids"] and ca["causal"] == cb["causal"], "the cases differ"
        for key in ("hidden", "logits"):
            worst = max(worst, float(np.abs(np.array(ca[key]) - np.array(cb[key])).max()))
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="recompute and compare with the committed fixtures; write nothing")
    parser.add_argument("--init", action="store_true", help="first re-create the seed files with `cargo run --bin tblock -- init`")
    args = parser.parse_args()
    start = time.perf_counter()

    if args.init and not args.check:
        for seed in SEEDS:
            out = FIXTURES / f"tiny-gpt-seed-{seed}.safetensors"
            subprocess.run(
                ["cargo", "run", "--quiet", "--bin", "tblock", "--", "init", "--seed", str(seed), "--out", str(out)],
                cwd=REPO, check=True,
            )

    stretched_path = FIXTURES / f"{STRETCH_NAME}.safetensors"
    source_name = f"tiny-gpt-seed-{STRETCH_FROM}.safetensors"
    source, metadata = read_safetensors(FIXTURES / source_name)
    if args.check:
        have, _ = read_safetensors(stretched_path)
        want = {k: v.astype(np.float32).astype(np.float64) for k, v in stretched(source).items()}
        bad = [k for k in want if k not in have or not np.array_equal(have[k], want[k])]
        if bad or set(have) != set(want):
            print(f"{stretched_path.name}: differs from {source_name} stretched ({bad or 'tensor names'})")
            return 1
    else:
        write_safetensors(stretched_path, stretched(source), metadata)

    failures = 0
    jobs = [(f"tiny-gpt-seed-{s}", s, None) for s in SEEDS] + [(STRETCH_NAME, None, source_name)]
    for name, seed, derived_from in jobs:
        fx = fixture(name, seed, derived_from)
        path = FIXTURES / f"{name}.json"
        if args.check:
            diff = largest_difference(fx, json.loads(path.read_text()))
            ok = diff <= 1e-9
            failures += not ok
            print(f"{path.name}: largest difference from the committed file {diff:.3g} {'ok' if ok else 'MISMATCH'}")
        else:
            path.write_text(dumps(fx))
            print(f"wrote {path.relative_to(REPO)} ({len(fx['cases'])} cases)")
    print(f"self-checks passed; {time.perf_counter() - start:.2f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
