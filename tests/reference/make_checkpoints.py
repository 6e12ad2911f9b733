#!/usr/bin/env python3
"""Small real-family checkpoints (GPT-2, Llama, Qwen2, Mistral) and independent reference numbers
for the Rust forward pass that reads Hugging Face decoder checkpoints.

What it does (deterministic: every random draw is seeded, torch runs on one thread; running it
again rewrites the same bytes)
  1. Text: crate/data/lesson-prose.txt. The train text is its first 90% of characters
     (cut = floor(0.9 * number of characters)), the eval text the rest; the eval text is written to
     fixtures/checkpoints/eval.txt (UTF-8, newlines untouched).
  2. Tokenizer: a byte-level BPE like GPT-2's, trained with the `tokenizers` library on the whole
     prose (ByteLevel pre-tokenizer, add_prefix_space=False, GPT-2's split regex; ByteLevel decoder;
     BpeTrainer, vocab_size 384, initial alphabet = the 256 byte symbols, one special token
     "<|endoftext|>" which gets id 0). The same tokenizer.json is copied into every model directory.
     Every encoding uses add_special_tokens=False.
  3. Four tiny models made with transformers, each trained for 200 Adam steps (lr 3e-3, batches of
     8 random windows of 33 train-text ids, float32, eager attention) from a seeded initialisation,
     then cast and saved with save_pretrained into fixtures/checkpoints/<name>/
     (config.json, tokenizer.json, weights; transformers' generation_config.json is deleted):
       gpt2     d 48, 3 layers, 4 heads, 64 positions, tied head, gelu_new     float32, one file
       llama    d 48, ff 96, 3 layers, 4 heads / 2 kv heads, untied, llama3 rope scaling
                (theta 1e4, factor 8, low 1, high 4, original 16 positions)  bfloat16, sharded (index.json)
       qwen2    d 48, ff 96, 2 layers, 4 heads / 2 kv heads, tied, q/k/v biases, theta 1e6
                                                                             float16, one file
       mistral  d 48, ff 96, 2 layers, 4 heads / 1 kv head, untied, sliding window 8
                                                                             float32, one file
  4. A reference forward pass written here by hand in float64 PyTorch (no transformers module is
     called), reading config.json and the saved safetensors (all shards) back from disk, so the
     numbers are those of the stored, cast weights.
  5. The checks, asserted before anything is written as expected.json:
       - transformers' own model (AutoModelForCausalLM.from_pretrained of the saved directory, which
         must report nothing missing, unexpected or mismatched), in float64 with eager and with sdpa
         attention and in float32 eager, gives the reference's logits on the first eval window
         within 1e-4 (the largest difference is printed), its hidden_states[i] equal the stream
         entering block i, and its eval loss equals the reference's;
       - Mistral: the same model with the sliding window switched off in the reference differs
         from transformers by far more than 1e-4 (so the window is applied, and matters);
       - the eval ids decode back to the eval text exactly;
       - the reference run on the first 4 ids alone equals the first 4 positions of the full window;
       - running all the experiments a second time gives identical numbers;
       - the intact loss is below ln V, and removing block 0 raises it.
  6. The experiments, context N = 32 (see tests/reference/README.md for the exact definitions),
     written to fixtures/checkpoints/<name>/expected.json: the eval ids, eval, ablate, stream, a
     probe (the stream entering each block and the logits at the first 4 positions), the parameter
     count and the stored dtype.

Usage (from the repository root):
  tests/reference/.venv/bin/python tests/reference/make_checkpoints.py   # a venv with requirements-torch.txt
Takes about 10 seconds on two CPU cores.
"""

import json
import math
import shutil
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from safetensors import safe_open
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

ROOT = Path(__file__).resolve().parents[2]
PROSE = ROOT / "crate" / "data" / "lesson-prose.txt"
OUT = ROOT / "tests" / "reference" / "fixtures" / "checkpoints"

CONTEXT = 32
VOCAB_SIZE = 384
EOT = "<|endoftext|>"
TRAIN_STEPS = 200
TRAIN_LR = 3e-3
TRAIN_BATCH = 8
TRAIN_WINDOW = CONTEXT + 1
TOLERANCE = 1e-4

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)


# ----------------------------------------------------------------------------------------------
# Text and tokenizer


def read_text(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def write_text(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def train_tokenizer(text):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[EOT],
        show_progress=False,
    )
    tok.train_from_iterator([text], trainer=trainer)
    return tok


# ----------------------------------------------------------------------------------------------
# The four models


def model_specs(vocab, eot_id):
    from transformers import GPT2Config, LlamaConfig, MistralConfig, Qwen2Config

    common = dict(vocab_size=vocab, bos_token_id=eot_id, eos_token_id=eot_id)
    return [
        dict(
            name="gpt2", seed=11, dtype=torch.float32, shard=None,
            config=GPT2Config(
                n_embd=48, n_layer=3, n_head=4, n_positions=64, activation_function="gelu_new",
                resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, **common,
            ),
        ),
        dict(
            name="llama", seed=12, dtype=torch.bfloat16, shard="80KB",
            config=LlamaConfig(
                hidden_size=48, intermediate_size=96, num_hidden_layers=3, num_attention_heads=4,
                num_key_value_heads=2, max_position_embeddings=64, tie_word_embeddings=False,
                rope_parameters={
                    "rope_type": "llama3", "rope_theta": 10000.0, "factor": 8.0,
                    "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                    "original_max_position_embeddings": 16,
                },
                **common,
            ),
        ),
        dict(
            name="qwen2", seed=13, dtype=torch.float16, shard=None,
            config=Qwen2Config(
                hidden_size=48, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=2, max_position_embeddings=64, tie_word_embeddings=True,
                rope_parameters={"rope_type": "default", "rope_theta": 1000000.0},
                **common,
            ),
        ),
        dict(
            name="mistral", seed=14, dtype=torch.float32, shard=None,
            config=MistralConfig(
                hidden_size=48, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=1, max_position_embeddings=64, sliding_window=8,
                tie_word_embeddings=False,
                **common,
            ),
        ),
    ]


def train_model(spec, train_ids):
    from transformers import AutoModelForCausalLM

    torch.manual_seed(spec["seed"])
    model = AutoModelForCausalLM.from_config(spec["config"], attn_implementation="eager", dtype=torch.float32)
    model.train()
    data = torch.tensor(train_ids, dtype=torch.long)
    gen = torch.Generator().manual_seed(1000 + spec["seed"])
    opt = torch.optim.Adam(model.parameters(), lr=TRAIN_LR)
    first = last = None
    for step in range(TRAIN_STEPS):
        starts = torch.randint(0, len(data) - TRAIN_WINDOW + 1, (TRAIN_BATCH,), generator=gen)
        batch = torch.stack([data[s : s + TRAIN_WINDOW] for s in starts.tolist()])
        logits = model(input_ids=batch[:, :-1]).logits
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == 0:
            first = loss.item()
        last = loss.item()
    model.eval()
    return model, first, last


def save_model(spec, model, directory, tokenizer_json):
    if directory.exists():
        shutil.rmtree(directory)
    model = model.to(spec["dtype"])
    kwargs = {}
    if spec["shard"]:
        kwargs["max_shard_size"] = spec["shard"]
    model.save_pretrained(directory, **kwargs)
    gen = directory / "generation_config.json"
    if gen.exists():
        gen.unlink()
    write_text(directory / "tokenizer.json", tokenizer_json)


# ----------------------------------------------------------------------------------------------
# Reading a checkpoint back


def load_tensors(directory):
    """Every stored tensor as float64, plus each one's stored dtype."""
    index = directory / "model.safetensors.index.json"
    if index.exists():
        files = sorted(set(json.loads(index.read_text())["weight_map"].values()))
    else:
        files = ["model.safetensors"]
    tensors, dtypes = {}, {}
    for name in files:
        with safe_open(directory / name, framework="pt") as f:
            for key in f.keys():
                assert key not in tensors, f"{key} stored twice"
                t = f.get_tensor(key)
                dtypes[key] = str(t.dtype).split(".")[1]
                tensors[key] = t.to(torch.float64)
    if index.exists():
        weight_map = json.loads(index.read_text())["weight_map"]
        assert set(weight_map) == set(tensors), "index.json and the shards disagree"
    return tensors, dtypes, files


# ----------------------------------------------------------------------------------------------
# The reference: float64, by hand


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def rope_inv_freq(cfg, head_dim):
    rp = cfg.get("rope_parameters") or cfg.get("rope_scaling") or {}
    theta = rp.get("rope_theta", cfg.get("rope_theta"))
    rope_type = rp.get("rope_type", rp.get("type", "default"))
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim))
    if rope_type == "default":
        return inv
    assert rope_type == "llama3", rope_type
    factor = rp["factor"]
    low, high = rp["low_freq_factor"], rp["high_freq_factor"]
    old = rp["original_max_position_embeddings"]
    low_wavelen, high_wavelen = old / low, old / high
    wavelen = 2 * math.pi / inv
    out = torch.where(wavelen > low_wavelen, inv / factor, inv)
    smooth = (old / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * out / factor + smooth * out
    medium = (wavelen >= high_wavelen) & (wavelen <= low_wavelen)
    return torch.where(medium, smoothed, out)


class Reference:
    """A decoder read from a saved directory. Blocks expose their two sublayers separately:
    attn(i, x) = attn(norm_1(x)) and mlp(i, x) = mlp(norm_2(x)), so the experiments can rewire them."""

    def __init__(self, directory, sliding_window="config"):
        self.cfg = json.loads((directory / "config.json").read_text())
        self.w, self.dtypes, self.files = load_tensors(directory)
        self.family = self.cfg["model_type"]
        if self.family == "gpt2":
            self._init_gpt2()
        else:
            self._init_llama_like(sliding_window)
        used = self.expected_names()
        assert set(self.w) == used, f"stored names differ: {sorted(set(self.w) ^ used)}"

    # --- GPT-2
    def _init_gpt2(self):
        c = self.cfg
        self.d, self.layers, self.heads = c["n_embd"], c["n_layer"], c["n_head"]
        self.head_dim = self.d // self.heads
        self.kv_heads = self.heads
        self.eps = c["layer_norm_epsilon"]
        assert c["activation_function"] == "gelu_new"
        assert c.get("scale_attn_weights", True) and not c.get("scale_attn_by_inverse_layer_idx", False)
        self.p = "transformer." if "transformer.wte.weight" in self.w else ""
        self.window = None

    # --- Llama, Mistral, Qwen2
    def _init_llama_like(self, sliding_window):
        c = self.cfg
        self.d, self.layers = c["hidden_size"], c["num_hidden_layers"]
        self.heads, self.kv_heads = c["num_attention_heads"], c["num_key_value_heads"]
        self.head_dim = c.get("head_dim") or self.d // self.heads
        self.eps = c["rms_norm_eps"]
        assert c["hidden_act"] == "silu"
        self.inv_freq = rope_inv_freq(c, self.head_dim)
        if self.family == "mistral":
            self.window = c.get("sliding_window")
        elif self.family == "qwen2":
            assert not c.get("use_sliding_window", False)
            self.window = None
        else:
            self.window = None
        if sliding_window is None:
            self.window = None
        self.qkv_bias = self.family == "qwen2" or c.get("attention_bias", False)
        self.o_bias = self.family != "qwen2" and c.get("attention_bias", False)
        self.mlp_bias = c.get("mlp_bias", False)
        self.tied = c.get("tie_word_embeddings", False)

    def expected_names(self):
        names = set()
        if self.family == "gpt2":
            p = self.p
            names |= {p + "wte.weight", p + "wpe.weight", p + "ln_f.weight", p + "ln_f.bias"}
            for i in range(self.layers):
                for sub in ["ln_1", "ln_2", "attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj"]:
                    names |= {f"{p}h.{i}.{sub}.weight", f"{p}h.{i}.{sub}.bias"}
            return names
        names |= {"model.embed_tokens.weight", "model.norm.weight"}
        if not self.tied:
            names.add("lm_head.weight")
        for i in range(self.layers):
            l = f"model.layers.{i}."
            names |= {l + "input_layernorm.weight", l + "post_attention_layernorm.weight"}
            for proj in "qkvo":
                names.add(f"{l}self_attn.{proj}_proj.weight")
                if (proj != "o" and self.qkv_bias) or (proj == "o" and self.o_bias):
                    names.add(f"{l}self_attn.{proj}_proj.bias")
            for proj in ["gate", "up", "down"]:
                names.add(f"{l}mlp.{proj}_proj.weight")
                if self.mlp_bias:
                    names.add(f"{l}mlp.{proj}_proj.bias")
        return names

    # --- pieces
    def layer_norm(self, x, name):
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        return (x - mean) / torch.sqrt(var + self.eps) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def rms_norm(self, x, name):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.w[name + ".weight"] * (x * torch.rsqrt(var + self.eps))

    def linear(self, x, name, bias):
        y = x @ self.w[name + ".weight"].T
        return y + self.w[name + ".bias"] if bias else y

    def mask(self, t):
        i = torch.arange(t)[:, None]
        j = torch.arange(t)[None, :]
        allowed = j <= i
        if self.window is not None:
            allowed = allowed & (i - j < self.window)
        return allowed

    def attend(self, q, k, v):
        # q [B,h,T,dh], k/v [B,kv,T,dh]; query head n reads kv head n // (h / kv)
        group = self.heads // self.kv_heads
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(~self.mask(q.shape[2]), float("-inf"))
        return torch.softmax(scores, dim=-1) @ v

    def split(self, x, n):
        b, t, _ = x.shape
        return x.view(b, t, n, self.head_dim).transpose(1, 2)

    def merge(self, x):
        b, _, t, _ = x.shape
        return x.transpose(1, 2).reshape(b, t, -1)

    # --- the model in parts
    def embed(self, ids):
        if self.family == "gpt2":
            t = ids.shape[1]
            return self.w[self.p + "wte.weight"][ids] + self.w[self.p + "wpe.weight"][:t][None]
        return self.w["model.embed_tokens.weight"][ids]

    def attn(self, i, x):
        if self.family == "gpt2":
            l = f"{self.p}h.{i}."
            h = self.layer_norm(x, l + "ln_1")
            qkv = h @ self.w[l + "attn.c_attn.weight"] + self.w[l + "attn.c_attn.bias"]  # Conv1D: [in, out]
            q, k, v = qkv.split(self.d, dim=-1)
            o = self.merge(self.attend(self.split(q, self.heads), self.split(k, self.heads), self.split(v, self.heads)))
            return o @ self.w[l + "attn.c_proj.weight"] + self.w[l + "attn.c_proj.bias"]
        l = f"model.layers.{i}."
        h = self.rms_norm(x, l + "input_layernorm")
        q = self.split(self.linear(h, l + "self_attn.q_proj", self.qkv_bias), self.heads)
        k = self.split(self.linear(h, l + "self_attn.k_proj", self.qkv_bias), self.kv_heads)
        v = self.split(self.linear(h, l + "self_attn.v_proj", self.qkv_bias), self.kv_heads)
        pos = torch.arange(x.shape[1], dtype=torch.float64)
        freqs = pos[:, None] * self.inv_freq[None, :]
        emb = torch.cat([freqs, freqs], dim=-1)
        cos, sin = emb.cos(), emb.sin()
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        o = self.merge(self.attend(q, k, v))
        return self.linear(o, l + "self_attn.o_proj", self.o_bias)

    def mlp(self, i, x):
        if self.family == "gpt2":
            l = f"{self.p}h.{i}."
            h = self.layer_norm(x, l + "ln_2")
            u = h @ self.w[l + "mlp.c_fc.weight"] + self.w[l + "mlp.c_fc.bias"]
            u = 0.5 * u * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u**3)))
            return u @ self.w[l + "mlp.c_proj.weight"] + self.w[l + "mlp.c_proj.bias"]
        l = f"model.layers.{i}."
        h = self.rms_norm(x, l + "post_attention_layernorm")
        gate = self.linear(h, l + "mlp.gate_proj", self.mlp_bias)
        up = self.linear(h, l + "mlp.up_proj", self.mlp_bias)
        return self.linear(F.silu(gate) * up, l + "mlp.down_proj", self.mlp_bias)

    def head(self, x):
        if self.family == "gpt2":
            return self.layer_norm(x, self.p + "ln_f") @ self.w[self.p + "wte.weight"].T
        h = self.rms_norm(x, "model.norm")
        table = self.w["model.embed_tokens.weight"] if self.tied else self.w["lm_head.weight"]
        return h @ table.T

    def forward(self, ids, removed=None, overwritten=None, record=False):
        """ids [B,T]. removed / overwritten: a block index. With record, also returns per block
        (x entering, a after attention, out leaving)."""
        x = self.embed(ids)
        trace = []
        for i in range(self.layers):
            if i == removed:
                trace.append(None)
                continue
            if i == overwritten:
                x = self.attn(i, x)
                x = self.mlp(i, x)
                trace.append(None)
                continue
            a = x + self.attn(i, x)
            out = a + self.mlp(i, a)
            if record:
                trace.append((x, a, out))
            x = out
        logits = self.head(x)
        return (logits, trace) if record else logits

    def parameters(self):
        return sum(t.numel() for t in self.w.values())


# ----------------------------------------------------------------------------------------------
# The experiments


def windows(ids):
    n = len(ids) // (CONTEXT + 1)
    w = torch.tensor(ids[: n * (CONTEXT + 1)], dtype=torch.long).view(n, CONTEXT + 1)
    return w[:, :CONTEXT], w[:, 1:]


def loss_of(logits, targets):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1)).item()


def median(values):
    return float(np.median(values.reshape(-1).numpy()))


def experiments(ref, ids):
    inputs, targets = windows(ids)
    scored = inputs.numel()
    vocab = ref.w[ref.p + "wte.weight" if ref.family == "gpt2" else "model.embed_tokens.weight"].shape[0]
    logits, trace = ref.forward(inputs, record=True)
    intact = loss_of(logits, targets)
    blocks = []
    for i in range(ref.layers):
        blocks.append({
            "block": i,
            "removed": loss_of(ref.forward(inputs, removed=i), targets),
            "overwritten": loss_of(ref.forward(inputs, overwritten=i), targets),
        })
    stream = []
    for i, (x, a, out) in enumerate(trace):
        nx, na = x.norm(dim=-1), (a - x).norm(dim=-1)
        nf_in, nf = a.norm(dim=-1), (out - a).norm(dim=-1)
        cos = (x * out).sum(-1) / (nx * out.norm(dim=-1))
        stream.append({
            "block": i,
            "stream_norm": median(nx),
            "attention_norm": median(na),
            "attention_fraction": median(na / nx),
            "feed_forward_norm": median(nf),
            "feed_forward_fraction": median(nf / nf_in),
            "cosine_in_out": median(cos),
        })
    probe_ids = inputs[0, :4]
    probe_logits, probe_trace = ref.forward(probe_ids[None], record=True)
    # causal: the first 4 positions of the full window must give the same numbers
    assert (probe_logits[0] - logits[0, :4]).abs().max().item() < 1e-10
    for (px, _, _), (x, _, _) in zip(probe_trace, trace):
        assert (px[0] - x[0, :4]).abs().max().item() < 1e-10
    return {
        "eval": {"loss": intact, "tokens": scored},
        "ablate": {"intact": intact, "uniform": math.log(vocab), "tokens": scored, "blocks": blocks},
        "stream": {
            "embedding_norm": median(trace[0][0].norm(dim=-1)),
            "positions": scored,
            "blocks": stream,
        },
        "probe": {
            "ids": probe_ids.tolist(),
            "blocks_in": [t[0][0].tolist() for t in probe_trace],
            "logits": probe_logits[0].tolist(),
        },
    }


# ----------------------------------------------------------------------------------------------
# Checking the reference against transformers


def check_against_transformers(directory, ref, ids, name):
    from transformers import AutoModelForCausalLM

    inputs, targets = windows(ids)
    first = inputs[:1]
    ref_logits, trace = ref.forward(first, record=True)
    ref_loss = loss_of(ref.forward(inputs), targets)
    diffs = {}
    for dtype, impl in [(torch.float64, "eager"), (torch.float64, "sdpa"), (torch.float32, "eager")]:
        model, info = AutoModelForCausalLM.from_pretrained(
            directory, dtype=dtype, attn_implementation=impl, output_loading_info=True
        )
        for kind in ["missing_keys", "unexpected_keys", "mismatched_keys", "error_msgs"]:
            assert not info.get(kind), f"{name}: transformers reports {kind}: {info[kind]}"
        model.eval()
        with torch.no_grad():
            out = model(input_ids=first, output_hidden_states=True)
            all_logits = model(input_ids=inputs).logits
        d = (out.logits.double() - ref_logits).abs().max().item()
        assert d < TOLERANCE, f"{name} {impl} {dtype}: logits differ by {d}"
        for i, (x, _, _) in enumerate(trace):
            h = (out.hidden_states[i].double() - x).abs().max().item()
            assert h < TOLERANCE, f"{name} {impl} {dtype}: stream entering block {i} differs by {h}"
        tl = loss_of(all_logits.double(), targets)
        assert abs(tl - ref_loss) < TOLERANCE, f"{name} {impl} {dtype}: loss {tl} vs {ref_loss}"
        diffs[f"{str(dtype).split('.')[1]} {impl}"] = d
        if ref.window is not None:
            unwindowed = Reference(directory, sliding_window=None)
            u = (out.logits.double() - unwindowed.forward(first)).abs().max().item()
            assert u > 100 * TOLERANCE, f"{name}: the sliding window makes no difference ({u})"
            diffs[f"{str(dtype).split('.')[1]} {impl} vs no window"] = u
    return diffs


# ----------------------------------------------------------------------------------------------


def main():
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    text = read_text(PROSE)
    cut = int(0.9 * len(text))
    train_text, eval_text = text[:cut], text[cut:]
    OUT.mkdir(parents=True, exist_ok=True)
    write_text(OUT / "eval.txt", eval_text)

    tokenizer = train_tokenizer(text)
    again = train_tokenizer(text)
    tokenizer_json = tokenizer.to_str(pretty=True)
    assert again.to_str(pretty=True) == tokenizer_json, "tokenizer training is not deterministic"
    vocab = tokenizer.get_vocab_size()
    eot_id = tokenizer.token_to_id(EOT)
    train_ids = tokenizer.encode(train_text, add_special_tokens=False).ids
    print(f"text {len(text)} chars: train {len(train_text)}, eval {len(eval_text)}; "
          f"vocab {vocab}, {EOT} = {eot_id}; train ids {len(train_ids)}")

    summary = []
    for spec in model_specs(vocab, eot_id):
        name = spec["name"]
        directory = OUT / name
        model, first, last = train_model(spec, train_ids)
        save_model(spec, model, directory, tokenizer_json)
        del model

        # everything below reads the saved files
        tok = Tokenizer.from_file(str(directory / "tokenizer.json"))
        ids = tok.encode(read_text(OUT / "eval.txt"), add_special_tokens=False).ids
        assert tok.decode(ids) == eval_text, f"{name}: the eval ids do not decode to the eval text"
        ref = Reference(directory)
        stored = set(ref.dtypes.values())
        assert stored == {str(spec["dtype"]).split(".")[1]}, f"{name}: stored dtypes {stored}"
        if spec["shard"]:
            assert len(ref.files) >= 2, f"{name}: expected at least 2 shards, got {ref.files}"
        result = experiments(ref, ids)
        assert experiments(Reference(directory), ids) == result, f"{name}: the reference is not deterministic"
        diffs = check_against_transformers(directory, ref, ids, name)

        ab = result["ablate"]
        assert ab["intact"] < ab["uniform"] - 1.0, f"{name}: intact loss {ab['intact']} vs ln V {ab['uniform']}"
        assert ab["blocks"][0]["removed"] > ab["intact"] + 0.1, f"{name}: removing block 0 does not hurt"

        expected = {
            "model": name,
            "context": CONTEXT,
            "dtype": stored.pop(),
            "parameters": ref.parameters(),
            "ids": ids,
            **result,
        }
        body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in expected.items())
        write_text(directory / "expected.json", "{\n" + body + "\n}\n")
        summary.append((name, spec, first, last, ab, diffs, ref))

    print()
    for name, spec, first, last, ab, diffs, ref in summary:
        print(f"{name}: {ref.parameters()} parameters, {ref.dtypes[next(iter(ref.dtypes))]}, files {ref.files}")
        print(f"  training loss {first:.3f} -> {last:.3f}")
        print(f"  intact {ab['intact']:.4f}  ln V {ab['uniform']:.4f}  block 0 removed {ab['blocks'][0]['removed']:.4f}"
              f"  ({ab['tokens']} tokens)")
        for b in ab["blocks"]:
            print(f"    block {b['block']}: removed {b['removed']:.4f}, overwritten {b['overwritten']:.4f}")
        for k, v in diffs.items():
            print(f"  transformers ({k}) vs reference, largest logit difference: {v:.3g}")
    total = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"\nfixtures/checkpoints: {total} bytes")


if __name__ == "__main__":
    main()
