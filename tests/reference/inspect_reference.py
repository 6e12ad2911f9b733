#!/usr/bin/env python3
"""Reference fixtures for `TrainableGpt::inspect`: every intermediate of one forward pass, computed
again by Hugging Face transformers' GPT-2, independently of the Rust.

What it does
  1. Loads two checkpoints into transformers' `GPT2LMHeadModel` (eager attention, float32):
     - `stretched`: fixtures/tiny-gpt-seed-7-stretched.safetensors (make_fixtures.py made it; its
       config.json is in the file's metadata, and it has no attention biases, which are set to 0
       here), read with the lessons' vocabulary (crate/data/vocab.json);
     - `trained`: fixtures/inspect-trained/, a directory `tblock train --steps 400 --seed 3 --dtype
       f32` wrote, read with `GPT2LMHeadModel.from_pretrained(DIR)` (which must report nothing
       missing or unexpected) and its own vocab.json.
  2. Encodes each text in TEXTS itself, from vocab.json and the fold rules of
     crate/src/train/tokenizer.rs (typographic quotes, dashes and spaces made plain, A-Z lowercase,
     "\r" dropped, anything else unknown -> the id of U+FFFD). The Rust test checks that Rust gets
     the same ids.
  3. Runs the model with `output_attentions=True`, `output_hidden_states=True` and forward hooks on
     wte, wpe, every ln_1 / attn.c_attn / attn.c_proj / ln_2 / mlp.c_fc / mlp.act / mlp.c_proj, and
     ln_f, and keeps every tensor `Inspection` has, under the same paths (see `inspect`). A few are
     derived here in float64 from what the hooks saw: the scores before the mask (q·kᵀ/√d_h from the
     hooked c_attn output), a norm's x̂, row mean and spread (from the hooked norm input), the
     statistics of x̂, the stream's sizes and the share of hidden units above 0.
  4. Checks itself without Rust (see `self_checks`), also against a float64 copy of the model, and
     writes fixtures/inspect/inspect-<name>.json (numbers rounded to 8 significant digits and to 1e-8).

The Rust test crate/tests/inspect_reference.rs runs `TrainableGpt::inspect` on the same checkpoints
and texts and requires every number of every tensor to match within 1e-5.

Usage (from the repository root; see tests/reference/README.md):
  tests/reference/.venv/bin/python tests/reference/inspect_reference.py            # write the fixtures
  tests/reference/.venv/bin/python tests/reference/inspect_reference.py --check    # recompute, compare, write nothing
  cargo run --release --bin tblock -- train --steps 400 --seed 3 --dtype f32 --out tests/reference/fixtures/inspect-trained
                                                                                  # (re)make the trained checkpoint first
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
# Not fixtures/ itself: crate/tests/reference.rs reads every *.json there as one of make_fixtures.py's.
FIXTURES = HERE / "fixtures" / "inspect"
REPO = HERE.parent.parent

# name -> (weights, vocab.json or None for the lessons' vocabulary), paths from the repository root.
CHECKPOINTS = {
    "stretched": ("tests/reference/fixtures/tiny-gpt-seed-7-stretched.safetensors", None),
    "trained": ("tests/reference/fixtures/inspect-trained", "tests/reference/fixtures/inspect-trained/vocab.json"),
}
LESSONS_VOCAB = "crate/data/vocab.json"

TEXTS = [
    "the stream",        # the lessons' example
    "Attention mixes!",  # all 16 positions; uppercase folds to lowercase
    "q",                 # one position
    "Är—“2”\r\n",         # Ä is outside the vocabulary (read as U+FFFD); the dash and the quotes fold
                         # to "-" and '"'; "\r" is dropped, so 7 positions
]

# What the JSON keeps: 8 significant digits, and nothing below 1e-8 (far under the 1e-5 Rust is held to).
SIGNIFICANT = 8
DECIMALS = 8

# Tolerances of the script's own checks.
SELF_TOLERANCE = 1e-5      # float32 tensors recomputed here in float64 from the float32 inputs
FLOAT64_TOLERANCE = 1e-4   # the float32 run against a float64 copy of the model
CHECK_TOLERANCE = 1e-7     # --check, relative (to |x| or 1): another machine's float32 may move an 8th digit

OTHER = "\ufffd"
FOLDS = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u00a0": " ", "\t": " ",
}


# --------------------------------------------------------------------------------------------------
# The tokenizer, from crate/src/train/tokenizer.rs's rules


def fold(c: str) -> str:
    if c in FOLDS:
        return FOLDS[c]
    # Only ASCII letters are lowered (Rust's to_ascii_lowercase).
    return c.lower() if "A" <= c <= "Z" else c


def encode(vocab: dict[str, int], text: str) -> tuple[list[int], list[int], str]:
    """The ids, the positions read as U+FFFD that were not U+FFFD, and the text as read."""
    if OTHER not in vocab:
        raise SystemExit("vocab.json has no U+FFFD")
    symbols = {i: s for s, i in vocab.items()}
    chars = [c for c in text if c != "\r"]
    ids = [vocab.get(fold(c), vocab[OTHER]) for c in chars]
    unknown = [t for t, (c, i) in enumerate(zip(chars, ids)) if i == vocab[OTHER] and c != OTHER]
    return ids, unknown, "".join(symbols[i] for i in ids)


# --------------------------------------------------------------------------------------------------
# The models


def read_metadata(path: Path) -> dict[str, str]:
    from safetensors import safe_open

    with safe_open(str(path), "np") as f:
        return f.metadata() or {}


def load_stretched(path: Path):
    """A safetensors file whose config.json is in its metadata, into GPT2LMHeadModel."""
    from safetensors.numpy import load_file
    from transformers import GPT2Config, GPT2LMHeadModel

    config = json.loads(read_metadata(path)["config"])
    # GPT2Config's defaults name GPT-2's token 50256 as bos and eos, past this vocabulary: none here.
    hf_config = GPT2Config(**{"bos_token_id": None, "eos_token_id": None, **config})
    hf_config._attn_implementation = "eager"
    torch.manual_seed(0)
    model = GPT2LMHeadModel(hf_config)
    tensors = {f"transformer.{k}": torch.from_numpy(v.copy()) for k, v in load_file(str(path)).items()}
    # The file has no attention biases (the Rust model has none): they are 0.
    absent = []
    for i in range(hf_config.n_layer):
        for name, n in [(f"h.{i}.attn.c_attn.bias", 3 * hf_config.n_embd), (f"h.{i}.attn.c_proj.bias", hf_config.n_embd)]:
            key = f"transformer.{name}"
            if key not in tensors:
                tensors[key] = torch.zeros(n)
                absent.append(name)
    result = model.load_state_dict(tensors, strict=False)
    missing = [k for k in result.missing_keys if k != "lm_head.weight"]
    if missing or result.unexpected_keys:
        raise SystemExit(f"{path.name}: missing {missing}, unexpected {result.unexpected_keys}")
    model.tie_weights()
    assert model.lm_head.weight.data_ptr() == model.transformer.wte.weight.data_ptr(), "the head is tied"
    return model.eval(), config, absent


def load_trained(path: Path):
    """A directory tblock train wrote, by transformers' own from_pretrained."""
    from transformers import GPT2LMHeadModel

    model, info = GPT2LMHeadModel.from_pretrained(str(path), output_loading_info=True, attn_implementation="eager")
    problems = {k: v for k, v in info.items() if v}
    if problems:
        raise SystemExit(f"{path}: transformers did not load it as it is: {problems}")
    config = json.loads((path / "config.json").read_text())
    return model.eval(), config, []


def load_checkpoint(name: str):
    weights, vocab_path = CHECKPOINTS[name]
    path = REPO / weights
    model, config, absent = load_trained(path) if path.is_dir() else load_stretched(path)
    if config.get("activation_function") != "gelu_new":
        raise SystemExit(f"{name}: activation_function is {config.get('activation_function')!r}, not gelu_new")
    if model.config.activation_function != "gelu_new":
        raise SystemExit(f"{name}: transformers runs {model.config.activation_function}")
    meta_path = path / "model.safetensors" if path.is_dir() else path
    placement = read_metadata(meta_path).get("norm_placement", "pre")
    if placement != "pre":
        raise SystemExit(f"{name}: a {placement}-LN model; transformers' GPT-2 is pre-LN")
    vocab = json.loads((REPO / (vocab_path or LESSONS_VOCAB)).read_text())
    if len(vocab) != config["vocab_size"]:
        raise SystemExit(f"{name}: {len(vocab)} symbols for a table of {config['vocab_size']} rows")
    return model, config, vocab, absent


# --------------------------------------------------------------------------------------------------
# One inspection


def f64(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().to(torch.float64).numpy()


def norm_reading(x: np.ndarray, y: np.ndarray, eps: float) -> dict[str, np.ndarray]:
    """A LayerNorm's reading: its output y, and from its input x (in float64) x̂, μ, √(σ²+ε) and x̂'s stats."""
    mu = x.mean(axis=-1)
    spread = np.sqrt(((x - mu[:, None]) ** 2).mean(axis=-1) + eps)
    x_hat = (x - mu[:, None]) / spread[:, None]
    m = x_hat.mean(axis=-1)
    return {
        "output": y,
        "normalized": x_hat,
        "input_mean": mu,
        "input_spread": spread,
        "normalized_mean": m,
        "normalized_spread": np.sqrt(((x_hat - m[:, None]) ** 2).mean(axis=-1)),
    }


def sizes(x: np.ndarray) -> np.ndarray:
    return np.sqrt((x * x).sum(axis=-1))


def inspect(model, ids: list[int]) -> dict:
    """Every tensor of Rust's Inspection for one text, from one transformers forward pass."""
    tr = model.transformer
    cfg = model.config
    h, d = cfg.n_head, cfg.n_embd
    dh = d // h
    seen: dict[str, torch.Tensor] = {}
    handles = []

    def keep_output(name):
        def hook(_module, _inputs, output):
            seen[name] = (output[0] if isinstance(output, tuple) else output).detach().clone()

        return hook

    def keep_input(name):
        def hook(_module, inputs):
            seen[name] = inputs[0].detach().clone()

        return hook

    def on(module, name, inputs=False):
        handles.append(module.register_forward_hook(keep_output(name)))
        if inputs:
            handles.append(module.register_forward_pre_hook(keep_input(name + ".in")))

    on(tr.wte, "wte")
    on(tr.wpe, "wpe")
    for i, block in enumerate(tr.h):
        on(block, f"{i}.block")
        on(block.ln_1, f"{i}.ln_1", inputs=True)
        on(block.attn.c_attn, f"{i}.c_attn")
        on(block.attn.c_proj, f"{i}.attn.c_proj", inputs=True)
        on(block.ln_2, f"{i}.ln_2", inputs=True)
        on(block.mlp.c_fc, f"{i}.c_fc")
        on(block.mlp.act, f"{i}.act")
        on(block.mlp.c_proj, f"{i}.mlp.c_proj")
    on(tr.ln_f, "ln_f", inputs=True)
    try:
        with torch.no_grad():
            out = model(
                input_ids=torch.tensor([ids]), output_attentions=True, output_hidden_states=True, use_cache=False
            )
    finally:
        for handle in handles:
            handle.remove()

    t_len = len(ids)
    row = lambda name: f64(seen[name])[0]  # noqa: E731  [1, T, n] -> [T, n]
    eps = cfg.layer_norm_epsilon
    r: dict = {
        "attentions": np.stack([f64(a)[0] for a in out.attentions]),
        "hidden_states": np.stack([f64(s)[0] for s in out.hidden_states]),
        "tokens": row("wte"),
        "positions": f64(seen["wpe"]).reshape(-1, t_len, d)[0],
        "embedded": f64(out.hidden_states[0])[0],
        "blocks": [],
    }
    for i in range(cfg.n_layer):
        qkv = row(f"{i}.c_attn")  # [T, 3d], float32 values
        q, k, v = (qkv[:, j * d : (j + 1) * d].reshape(t_len, h, dh).transpose(1, 0, 2) for j in range(3))
        x = row(f"{i}.ln_1.in")
        after_attention = row(f"{i}.ln_2.in")
        hidden = row(f"{i}.c_fc")
        output = row(f"{i}.block")
        b = {
            "block": i,
            "input": x,
            "ln_1": norm_reading(x, row(f"{i}.ln_1"), eps),
            "q": q,
            "k": k,
            "v": v,
            "scores": q @ k.transpose(0, 2, 1) / math.sqrt(dh),
            "weights": f64(out.attentions[i])[0],
            "heads": row(f"{i}.attn.c_proj.in"),
            "attention_output": row(f"{i}.attn.c_proj"),
            "after_attention": after_attention,
            "ln_2": norm_reading(after_attention, row(f"{i}.ln_2"), eps),
            "hidden": hidden,
            "hidden_gelu": row(f"{i}.act"),
            "feed_forward_output": row(f"{i}.mlp.c_proj"),
            "output": output,
            # GPT-2 is pre-LN: the stream right after each add is the stream after that stage.
            "stream_sizes": {"input": sizes(x), "after_attention_add": sizes(after_attention),
                             "after_attention": sizes(after_attention),
                             "after_feed_forward_add": sizes(output), "output": sizes(output)},
            "gelu_open": (hidden > 0).mean(axis=-1),
            "gelu_open_share": float((hidden > 0).mean()),
        }
        r["blocks"].append(b)
    r["ln_f"] = norm_reading(row("ln_f.in"), row("ln_f"), eps)
    r["logits"] = f64(out.logits)[0]
    r["probabilities"] = f64(torch.softmax(out.logits[0], dim=-1))
    r["_ln_f_input"] = row("ln_f.in")
    r["_smallest_hidden"] = min(float(np.abs(row(f"{i}.c_fc")).min()) for i in range(cfg.n_layer))
    return r


def tensors(r: dict, at: str = "") -> list[tuple[str, np.ndarray]]:
    """Every array in an inspection with its dotted path ("blocks.0.ln_1.output")."""
    out = []
    for key, value in r.items():
        if key.startswith("_"):
            continue
        path = f"{at}{key}"
        if isinstance(value, np.ndarray):
            out.append((path, value))
        elif isinstance(value, dict):
            out.extend(tensors(value, path + "."))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for j, item in enumerate(value):
                out.extend(tensors(item, f"{path}.{j}."))
    return out


# --------------------------------------------------------------------------------------------------
# Checks without Rust


def gelu_new(z):
    return 0.5 * z * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))


def gelu_erf(z):
    return 0.5 * z * (1.0 + np.vectorize(math.erf)(z / math.sqrt(2.0)))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def self_checks(model, r: dict, ids: list[int], label: str) -> None:
    def close(what, a, b, tol=SELF_TOLERANCE):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, f"{label}: {what}: shapes {a.shape} and {b.shape}"
        worst = float(np.abs(a - b).max()) if a.size else 0.0
        assert worst <= tol, f"{label}: {what}: off by {worst:.3g} (allowed {tol:g})"

    def same(what, a, b):
        assert np.array_equal(a, b), f"{label}: {what}: not the same bits"

    tr = model.transformer
    w = lambda m: f64(m.weight)  # noqa: E731
    bias = lambda m: f64(m.bias)  # noqa: E731
    t_len, (h, d) = len(ids), (model.config.n_head, model.config.n_embd)
    dh = d // h
    eps = model.config.layer_norm_epsilon
    causal = np.tril(np.ones((t_len, t_len), dtype=bool))

    same("tokens are the table's rows", r["tokens"], w(tr.wte)[ids])
    same("positions are the table's first rows", r["positions"], w(tr.wpe)[:t_len])
    close("embedded = tokens + positions", r["embedded"], r["tokens"] + r["positions"], 1e-6)
    same("hidden_states[0] is the embedded stream", r["hidden_states"][0], r["embedded"])
    blocks = r["blocks"]
    for i, b in enumerate(blocks):
        at = f"block {i}"
        same(f"{at}: attentions[{i}] are its weights", r["attentions"][i], b["weights"])
        same(f"{at}: its input is the stream entering it", b["input"], r["embedded"] if i == 0 else blocks[i - 1]["output"])
        if i > 0:
            same(f"{at}: hidden_states[{i}] is the stream entering it", r["hidden_states"][i], b["input"])
        for name, m in [("ln_1", tr.h[i].ln_1), ("ln_2", tr.h[i].ln_2)]:
            n = b[name]
            close(f"{at}: {name} output = x̂·γ + β", n["output"], n["normalized"] * w(m) + bias(m))
            close(f"{at}: {name} x̂ rows have mean 0", n["normalized_mean"], 0 * n["normalized_mean"], 1e-12)
            close(f"{at}: {name} x̂ rows have spread √(σ²/(σ²+ε))", n["normalized_spread"],
                  np.sqrt(1 - eps / n["input_spread"] ** 2), 1e-12)
        qkv = b["ln_1"]["output"] @ w(tr.h[i].attn.c_attn) + bias(tr.h[i].attn.c_attn)
        for j, name in enumerate("qkv"):
            close(f"{at}: {name} = ln_1 · W + b, per head", b[name],
                  qkv[:, j * d : (j + 1) * d].reshape(t_len, h, dh).transpose(1, 0, 2))
        wts = b["weights"]
        assert wts.shape == (h, t_len, t_len), f"{label}: {at}: weights have shape {wts.shape}"
        assert np.all(wts[:, ~causal] == 0.0), f"{label}: {at}: a weight above the diagonal is not 0"
        close(f"{at}: every row of weights sums to 1", wts.sum(axis=-1), np.ones((h, t_len)), 1e-6)
        masked = np.where(causal, b["scores"], -np.inf)
        close(f"{at}: weights = softmax(masked scores)", wts, softmax(masked), 1e-6)
        heads = (wts @ b["v"]).transpose(1, 0, 2).reshape(t_len, d)
        close(f"{at}: heads = weights · v, joined", b["heads"], heads)
        m = tr.h[i].attn.c_proj
        close(f"{at}: attention_output = heads · W + b", b["attention_output"], b["heads"] @ w(m) + bias(m))
        close(f"{at}: after_attention = input + attention_output", b["after_attention"], b["input"] + b["attention_output"])
        m = tr.h[i].mlp.c_fc
        close(f"{at}: hidden = ln_2 · W + b", b["hidden"], b["ln_2"]["output"] @ w(m) + bias(m))
        close(f"{at}: hidden_gelu = gelu_new(hidden), the tanh form", b["hidden_gelu"], gelu_new(b["hidden"]), 1e-6)
        m = tr.h[i].mlp.c_proj
        close(f"{at}: feed_forward_output = hidden_gelu · W + b", b["feed_forward_output"], b["hidden_gelu"] @ w(m) + bias(m))
        close(f"{at}: output = after_attention + feed_forward_output", b["output"],
              b["after_attention"] + b["feed_forward_output"])
        for name, x in [("input", b["input"]), ("after_attention_add", b["after_attention"]),
                        ("after_attention", b["after_attention"]), ("after_feed_forward_add", b["output"]),
                        ("output", b["output"])]:
            close(f"{at}: stream_sizes.{name}", b["stream_sizes"][name], np.linalg.norm(x, axis=-1), 1e-9)
    same("ln_f reads the last block's output", r["_ln_f_input"], blocks[-1]["output"])
    close("ln_f output = x̂·γ + β", r["ln_f"]["output"], r["ln_f"]["normalized"] * w(tr.ln_f) + bias(tr.ln_f))
    same("hidden_states[-1] = ln_f(output of the last block)", r["hidden_states"][-1], r["ln_f"]["output"])
    close("logits = ln_f · wteᵀ (the tied head)", r["logits"], r["ln_f"]["output"] @ w(tr.wte).T)
    close("probabilities = softmax(logits)", r["probabilities"], softmax(r["logits"]), 1e-6)
    close("every row of probabilities sums to 1", r["probabilities"].sum(axis=-1), np.ones(t_len), 1e-6)


def gelu_is_the_tanh_form(model) -> None:
    """The model's activation is GELU's tanh form, which on [-6, 6] differs measurably from the erf form."""
    z = np.linspace(-6, 6, 2001)
    with torch.no_grad():
        act = model.transformer.h[0].mlp.act
        got = act(torch.tensor(z)).numpy()
    assert np.abs(got - gelu_new(z)).max() < 1e-12, "transformers' act is the tanh GELU"
    assert np.abs(got - gelu_erf(z)).max() > 1e-4, "the tanh and erf forms differ on [-6, 6]"


def compare_float64(model, r32: dict, ids: list[int], label: str) -> float:
    """The same inspection by a float64 copy of the model: how far the float32 run is from it."""
    import copy

    m64 = copy.deepcopy(model).to(torch.float64)
    r64 = inspect(m64, ids)
    worst = 0.0
    for (path, a), (path64, b) in zip(tensors(r32), tensors(r64)):
        assert path == path64
        if "gelu_open" in path:
            continue
        diff = float(np.abs(a - b).max())
        assert diff <= FLOAT64_TOLERANCE, f"{label}: {path}: float32 and float64 differ by {diff:.3g}"
        worst = max(worst, diff)
    return worst


# --------------------------------------------------------------------------------------------------
# The fixture files


def rounded(x: float) -> float:
    if x == 0.0 or not math.isfinite(x):
        return x
    y = float(f"{x:.{SIGNIFICANT - 1}e}")
    y = round(y, DECIMALS)
    return 0.0 if y == 0.0 else y


def to_json(value):
    if isinstance(value, np.ndarray):
        return to_json(value.tolist())
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, float):
        y = rounded(value)
        return 0 if y == 0.0 else y  # "0", not "0.0": many weights are
    return value


def tokenizer_checks(vocab: dict[str, int]) -> None:
    """The encoder on the folds the tokenizer documents (before any text is used)."""
    ids, unknown, read = encode(vocab, "Don’t — ever\r\nAÄä\t�")
    assert read == "don't - ever\na�� �", read
    assert unknown == [14, 15], unknown  # Ä and ä, but not U+FFFD itself
    assert ids == [vocab[c] for c in read]


def build(name: str) -> tuple[dict, list[str]]:
    model, config, vocab, absent = load_checkpoint(name)
    tokenizer_checks(vocab)
    torch.set_num_threads(1)
    weights, vocab_path = CHECKPOINTS[name]
    cases, notes = [], []
    for text in TEXTS:
        ids, unknown, read = encode(vocab, text)
        label = f"{name} {text!r}"
        assert 1 <= len(ids) <= config["n_positions"], f"{label}: {len(ids)} positions"
        r = inspect(model, ids)
        self_checks(model, r, ids, label)
        worst64 = compare_float64(model, r, ids, label)
        notes.append(
            f"{label}: T={len(ids)}, float32 vs float64 at most {worst64:.2g}, smallest |hidden| {r['_smallest_hidden']:.2g}"
        )
        if r["_smallest_hidden"] < 1e-5:
            notes.append("  warning: a hidden unit is within 1e-5 of 0: gelu_open may differ between implementations")
        case = {"input": text, "text": read, "symbols": [read[t] for t in range(len(read))], "ids": ids, "unknown": unknown}
        case.update(r)
        cases.append(case)
    gelu_is_the_tanh_form(model)
    import transformers

    fixture = {
        "about": "TrainableGpt::inspect's tensors computed by transformers' GPT2LMHeadModel (float32, eager attention) "
        "with output_attentions, output_hidden_states and forward hooks; made by tests/reference/inspect_reference.py",
        "weights": weights,
        "vocab": vocab_path or LESSONS_VOCAB,
        "config": config,
        "attention_biases_absent_set_to_zero": absent,
        "torch": torch.__version__.split("+")[0],
        "transformers": transformers.__version__,
        "cases": [to_json(c) for c in cases],
    }
    return fixture, notes


def dump(fixture: dict) -> str:
    return json.dumps(fixture, ensure_ascii=False, separators=(",", ":")) + "\n"


def compare_with_file(path: Path, fixture: dict) -> list[str]:
    """--check: the recomputed fixture against the committed one."""
    if not path.exists():
        return [f"{path.name} does not exist"]
    old = json.loads(path.read_text())
    problems = []

    def walk(a, b, at):
        if isinstance(a, dict) and isinstance(b, dict):
            if set(a) != set(b):
                problems.append(f"{at}: keys {sorted(set(a) ^ set(b))} in one but not the other")
            for k in set(a) & set(b):
                if k not in ("torch", "transformers"):
                    walk(a[k], b[k], f"{at}.{k}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                problems.append(f"{at}: {len(a)} items, committed {len(b)}")
            else:
                for j, (x, y) in enumerate(zip(a, b)):
                    walk(x, y, f"{at}.{j}")
        elif isinstance(a, float) or isinstance(b, float):
            if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) or abs(a - b) > CHECK_TOLERANCE * max(1.0, abs(b)):
                problems.append(f"{at}: {a} now, {b} committed")
        elif a != b:
            problems.append(f"{at}: {a!r} now, {b!r} committed")

    walk(fixture, old, path.name)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="recompute and compare with the committed fixtures; write nothing")
    args = parser.parse_args()
    failed = False
    for name in CHECKPOINTS:
        fixture, notes = build(name)
        for note in notes:
            print(note)
        path = FIXTURES / f"inspect-{name}.json"
        if args.check:
            problems = compare_with_file(path, fixture)
            if problems:
                failed = True
                print(f"{path.name}: {len(problems)} differences, first: " + "; ".join(problems[:5]))
            else:
                print(f"{path.name}: matches within {CHECK_TOLERANCE:g}")
        else:
            FIXTURES.mkdir(exist_ok=True)
            path.write_text(dump(fixture), encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size:,} bytes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
