#!/usr/bin/env python3
"""Reference fixtures for TinyGPT's training: the backward pass and AdamW, computed again by PyTorch's
autograd, independently of the Rust.

What it does
  1. Loads a committed checkpoint (fixtures/tiny-gpt-seed-7-stretched.safetensors: TinyGPT with
     non-trivial gains, biases and matrices, Hugging Face GPT-2 names) into a GPT written here in
     PyTorch from the math (token + position tables, pre-LN or post-LN blocks of causal multi-head
     attention and a GELU feed-forward, a final LayerNorm, the tied output head, cross-entropy), in
     float64.
  2. Draws 10 batches of 4 windows of 16 symbols from the lesson prose (crate/data/lesson-prose.txt,
     encoded with crate/data/vocab.json: lowercase, every other character the last symbol).
  3. For pre-LN and for post-LN, writes
       fixtures/training/train-{norm}.json               the batches, the settings, the loss of batch 0 and the
                                                loss of every step
       fixtures/training/train-{norm}-grads.safetensors  every parameter's gradient at batch 0 (Hugging Face
                                                names and layout, F32)
       fixtures/training/train-{norm}-after.safetensors  every parameter after 10 AdamW steps (β 0.9/0.95,
                                                ε 1e-8, weight decay 0.1 on 2-D tensors, gradient
                                                norm clipped to 1, learning rate: 3 steps of linear
                                                warmup to 3e-3, then a cosine towards 3e-4)
  4. With --transformers DIR: loads a model directory that `tblock train` wrote with transformers'
     GPT2LMHeadModel.from_pretrained(DIR) (which must report no missing or unexpected weights) and
     writes its logits for a few inputs to fixtures/training/transformers-logits.json.
  5. With --experiments DIR: the lesson's experiments on a model directory, computed here: the loss
     with each block removed and overwritten, and the stream's medians around each block, on a text
     stored in fixtures/training/experiments.json.
  6. With --bench [--threads N]: times this model in float32, eager, on this machine: a training
     step at batch 16 x 16 (forward, backward, clipping, AdamW) and a forward pass at T = 16 and 5.

crate/tests/training_reference.rs checks the Rust against these files (1e-4 relative, per tensor);
CI needs only the committed files, not Python.

Usage (from the repository root; see tests/reference/README.md):
  python3 -m venv tests/reference/.venv
  tests/reference/.venv/bin/pip install -r tests/reference/requirements-torch.txt
  tests/reference/.venv/bin/python tests/reference/train_reference.py
  tests/reference/.venv/bin/python tests/reference/train_reference.py --transformers tests/reference/fixtures/training/trained
  tests/reference/.venv/bin/python tests/reference/train_reference.py --bench
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "training"
REPO = HERE.parent.parent
CHECKPOINT = HERE / "fixtures" / "tiny-gpt-seed-7-stretched.safetensors"

BATCH, SEQ, STEPS = 4, 16, 10
SETTINGS = {
    "learning_rate": 3e-3,
    "warmup": 3,
    "steps": STEPS,
    "schedule": "cosine",
    "weight_decay": 0.1,
    "grad_clip": 1.0,
    "betas": [0.9, 0.95],
    "eps": 1e-8,
}


# --------------------------------------------------------------------------------------------------
# Data


def encode(text: str, vocab: dict[str, int]) -> list[int]:
    """One id per character: lowercase, the 49 known symbols, everything else the U+FFFD symbol."""
    other = vocab["\ufffd"]
    return [vocab.get(c, other) for c in text.lower() if c != "\r"]


def batches(seed: int = 2026) -> list[tuple[list[list[int]], list[list[int]]]]:
    """STEPS batches of BATCH windows: (ids, targets one ahead), from a seeded torch generator."""
    vocab = json.loads((REPO / "crate/data/vocab.json").read_text(encoding="utf-8"))
    ids = encode((REPO / "crate/data/lesson-prose.txt").read_text(encoding="utf-8"), vocab)
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(STEPS):
        starts = torch.randint(0, len(ids) - SEQ, (BATCH,), generator=g).tolist()
        out.append(([ids[s : s + SEQ] for s in starts], [ids[s + 1 : s + SEQ + 1] for s in starts]))
    return out


# --------------------------------------------------------------------------------------------------
# The model, from the math


def load_params(dtype=torch.float64) -> tuple[dict[str, torch.Tensor], dict]:
    """The checkpoint's tensors by Hugging Face name (no `transformer.` prefix), as leaf tensors."""
    tensors = load_file(str(CHECKPOINT))
    with open(CHECKPOINT, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        config = json.loads(json.loads(f.read(n))["__metadata__"]["config"])
    params = {k.removeprefix("transformer."): v.to(dtype).clone().requires_grad_(True) for k, v in tensors.items()}
    return params, config


def layer_norm(x, p, name, eps):
    return F.layer_norm(x, (x.shape[-1],), p[f"{name}.weight"], p[f"{name}.bias"], eps)


def causal_by_hand(q, k, v):
    """Scores, the causal mask and the softmax written out: the weighted sum of values [B, h, T, hd]."""
    T = q.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    mask = torch.ones(T, T, dtype=torch.bool).tril()
    return scores.masked_fill(~mask, float("-inf")).softmax(dim=-1) @ v


def causal_sdpa(q, k, v):
    """The same through `F.scaled_dot_product_attention` (what a PyTorch user writes)."""
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def attention(x, p, prefix, n_head, core=causal_by_hand):
    """Causal multi-head self-attention; Conv1D weights are [in, out]."""
    B, T, d = x.shape
    qkv = x @ p[f"{prefix}.c_attn.weight"]
    if f"{prefix}.c_attn.bias" in p:
        qkv = qkv + p[f"{prefix}.c_attn.bias"]
    q, k, v = qkv.split(d, dim=-1)
    q, k, v = (t.view(B, T, n_head, d // n_head).transpose(1, 2) for t in (q, k, v))  # [B, h, T, hd]
    y = core(q, k, v).transpose(1, 2).reshape(B, T, d)
    y = y @ p[f"{prefix}.c_proj.weight"]
    if f"{prefix}.c_proj.bias" in p:
        y = y + p[f"{prefix}.c_proj.bias"]
    return y


def attention_sdpa(x, p, prefix, n_head):
    return attention(x, p, prefix, n_head, causal_sdpa)


def feed_forward(x, p, prefix):
    h = F.gelu(x @ p[f"{prefix}.c_fc.weight"] + p[f"{prefix}.c_fc.bias"], approximate="tanh")
    return h @ p[f"{prefix}.c_proj.weight"] + p[f"{prefix}.c_proj.bias"]


def loss_of(p, config, norm, ids, targets, attend=None):
    """Mean cross-entropy of the next symbol at every position, in nats (`attend`: the attention, by
    default the hand-written one)."""
    attend = attend or attention
    eps, n_head = float(config["layer_norm_epsilon"]), int(config["n_head"])
    ids, targets = torch.as_tensor(ids), torch.as_tensor(targets)
    T = ids.shape[1]
    x = p["wte.weight"][ids] + p["wpe.weight"][:T]
    n_layer = sum(1 for k in p if k.endswith(".ln_1.weight"))
    for i in range(n_layer):
        b = f"h.{i}"
        if norm == "pre":
            x = x + attend(layer_norm(x, p, f"{b}.ln_1", eps), p, f"{b}.attn", n_head)
            x = x + feed_forward(layer_norm(x, p, f"{b}.ln_2", eps), p, f"{b}.mlp")
        else:
            x = layer_norm(x + attend(x, p, f"{b}.attn", n_head), p, f"{b}.ln_1", eps)
            x = layer_norm(x + feed_forward(x, p, f"{b}.mlp"), p, f"{b}.ln_2", eps)
    logits = layer_norm(x, p, "ln_f", eps) @ p["wte.weight"].T  # the tied head
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def learning_rate(step: int) -> float:
    """Linear warmup over `warmup` steps to the peak, then half a cosine towards a tenth of it."""
    peak, warmup, steps = SETTINGS["learning_rate"], SETTINGS["warmup"], SETTINGS["steps"]
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = (step - warmup) / max(1, steps - warmup)
    return peak / 10 + 0.5 * (peak - peak / 10) * (1 + math.cos(math.pi * progress))


def optimizer(p, lr=SETTINGS["learning_rate"]):
    decay = [t for t in p.values() if t.dim() == 2]
    rest = [t for t in p.values() if t.dim() != 2]
    groups = [{"params": decay, "weight_decay": SETTINGS["weight_decay"]}, {"params": rest, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=lr, betas=tuple(SETTINGS["betas"]), eps=SETTINGS["eps"])


def as_f32(p, grads=False) -> dict[str, torch.Tensor]:
    return {k: (v.grad if grads else v).detach().to(torch.float32).contiguous() for k, v in p.items()}


# --------------------------------------------------------------------------------------------------


def write_training_fixtures() -> None:
    data = batches()
    for norm in ("pre", "post"):
        p, config = load_params()
        loss = loss_of(p, config, norm, *data[0])
        loss.backward()
        save_file(as_f32(p, grads=True), str(FIXTURES / f"train-{norm}-grads.safetensors"))
        first_loss = loss.item()

        p, config = load_params()
        opt = optimizer(p)
        losses = []
        for step, (ids, targets) in enumerate(data):
            for group in opt.param_groups:
                group["lr"] = learning_rate(step)
            opt.zero_grad()
            loss = loss_of(p, config, norm, ids, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(list(p.values()), SETTINGS["grad_clip"])
            opt.step()
            losses.append(loss.item())
        save_file(as_f32(p), str(FIXTURES / f"train-{norm}-after.safetensors"))
        fixture = {
            "checkpoint": CHECKPOINT.name,
            "norm": norm,
            "settings": SETTINGS,
            "batches": [{"ids": ids, "targets": targets} for ids, targets in data],
            "loss": first_loss,
            "losses": losses,
        }
        (FIXTURES / f"train-{norm}.json").write_text(json.dumps(fixture, indent=1) + "\n")
        print(f"{norm}-LN: loss {first_loss:.6f}, after {STEPS} steps {losses[-1]:.6f}")


# --------------------------------------------------------------------------------------------------
# The experiments: taking a block out, and the stream around each block


def load_dir(model_dir: Path) -> tuple[dict[str, torch.Tensor], dict, str]:
    """A model directory tblock train wrote: float64 tensors, its config and norm placement."""
    tensors = load_file(str(model_dir / "model.safetensors"))
    config = json.loads((model_dir / "config.json").read_text())
    params = {k: v.to(torch.float64) for k, v in tensors.items()}
    return params, config, config.get("norm_placement", "pre")


def run_blocks(p, config, norm, ids, mode=None, block=None, record=None):
    """Logits [B, T, V] for windows `ids`; block `block` removed or overwritten when asked; `record`
    (a list) receives, per block, (input, after attention, what the feed-forward read, after it, output)."""
    eps, n_head = float(config["layer_norm_epsilon"]), int(config["n_head"])
    ids = torch.tensor(ids)
    x = p["wte.weight"][ids] + p["wpe.weight"][: ids.shape[1]]
    for i in range(int(config["n_layer"])):
        b = f"h.{i}"
        if i == block and mode == "removed":
            continue
        keep = 0.0 if (i == block and mode == "overwritten") else 1.0
        if norm == "pre":
            a = keep * x + attention(layer_norm(x, p, f"{b}.ln_1", eps), p, f"{b}.attn", n_head)
            out = keep * a + feed_forward(layer_norm(a, p, f"{b}.ln_2", eps), p, f"{b}.mlp")
            read = a
        else:
            a_sum = keep * x + attention(x, p, f"{b}.attn", n_head)
            read = layer_norm(a_sum, p, f"{b}.ln_1", eps)
            out = layer_norm(keep * read + feed_forward(read, p, f"{b}.mlp"), p, f"{b}.ln_2", eps)
            a = a_sum
        if record is not None:
            after = out if norm == "pre" else keep * read + feed_forward(read, p, f"{b}.mlp")
            record.append((x, a, read, after, out))
        x = out
    return layer_norm(x, p, "ln_f", float(config["layer_norm_epsilon"])) @ p["wte.weight"].T


def protocol_loss(p, config, norm, text_ids, mode=None, block=None) -> float:
    """The evaluation protocol: windows of P + 1, feed P, score every next symbol; mean in nats."""
    P = int(config["n_positions"])
    windows = [text_ids[i : i + P + 1] for i in range(0, len(text_ids) - P, P + 1)]
    logits = run_blocks(p, config, norm, [w[:P] for w in windows], mode, block)
    targets = torch.tensor([w[1:] for w in windows])
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1)).item()


def write_experiment_fixtures(model_dir: Path) -> None:
    """Ablation and stream figures of a committed model on a committed text (the held-out tail of the
    lesson prose at the time, stored in the fixture so later edits of the prose do not move it)."""
    vocab = json.loads((REPO / "crate/data/vocab.json").read_text(encoding="utf-8"))
    prose = (REPO / "crate/data/lesson-prose.txt").read_text(encoding="utf-8")
    text = prose[-1200:]
    ids = encode(text, vocab)
    p, config, norm = load_dir(model_dir)
    n = int(config["n_layer"])
    with torch.no_grad():
        ablation = {
            "intact": protocol_loss(p, config, norm, ids),
            "uniform": math.log(int(config["vocab_size"])),
            "blocks": [
                {"block": i, "removed": protocol_loss(p, config, norm, ids, "removed", i), "overwritten": protocol_loss(p, config, norm, ids, "overwritten", i)}
                for i in range(n)
            ],
        }
        P = int(config["n_positions"])
        windows = [ids[i : i + P + 1][:P] for i in range(0, len(ids) - P, P + 1)]
        record = []
        run_blocks(p, config, norm, windows, record=record)
        rows = lambda t: t.reshape(-1, t.shape[-1])  # noqa: E731  [positions, d]
        med = lambda t: t.median().item() if t.numel() % 2 else t.sort().values[t.numel() // 2 - 1 : t.numel() // 2 + 1].mean().item()  # noqa: E731
        blocks = []
        for i, (x, a, read, after, out) in enumerate(record):
            x, a, read, after, out = map(rows, (x, a, read, after, out))
            attn, ffn = (a - x).norm(dim=1), (after - read).norm(dim=1)
            blocks.append({
                "block": i,
                "stream_norm": med(x.norm(dim=1)),
                "attention_norm": med(attn),
                "attention_fraction": med(attn / x.norm(dim=1)),
                "feed_forward_norm": med(ffn),
                "feed_forward_fraction": med(ffn / read.norm(dim=1)),
                "cosine_in_out": med(F.cosine_similarity(x, out, dim=1)),
            })
        stream = {"embedding_norm": med(rows(record[0][0]).norm(dim=1)), "blocks": blocks}
    out = {"model_dir": str(model_dir.relative_to(REPO)), "text": text, "ids": ids, "ablation": ablation, "stream": stream}
    (FIXTURES / "experiments.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"experiments on {model_dir.name}: intact {ablation['intact']:.4f}, {n} blocks")


def write_transformers_logits(model_dir: Path) -> None:
    from transformers import GPT2LMHeadModel

    model, info = GPT2LMHeadModel.from_pretrained(str(model_dir), output_loading_info=True)
    problems = {k: v for k, v in info.items() if v}
    if problems:
        raise SystemExit(f"{model_dir}: transformers did not load it as it is: {problems}")
    model.eval()
    inputs = [[3, 1, 4, 1, 5], list(range(16)), [0], [49, 23, 24, 25, 1, 9, 0, 45]]
    cases = []
    with torch.no_grad():
        for ids in inputs:
            logits = model(torch.tensor([ids])).logits[0]
            cases.append({"ids": ids, "logits": [[round(x, 7) for x in row] for row in logits.tolist()]})
    out = {"model_dir": str(model_dir.relative_to(REPO)), "cases": cases}
    (FIXTURES / "transformers-logits.json").write_text(json.dumps(out) + "\n")
    print(f"transformers loaded {model_dir} with nothing missing; logits of {len(cases)} inputs written")


def bench(threads: int, quick: bool = False, attend: str = "manual", compile_: bool = False) -> None:
    """PyTorch eager, float32: a training step at 16 x 16 and forward passes, on `threads` threads.
    `attend`: "manual" (attention written out, as the fixtures' reference) or "sdpa"
    (`F.scaled_dot_product_attention`); `compile_`: the loss through `torch.compile` (inductor)."""
    torch.set_num_threads(threads)
    p, config = load_params(torch.float32)
    opt = optimizer(p)
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 50, (16, 17), generator=g)
    x, y = ids[:, :16], ids[:, 1:]
    fn = attention_sdpa if attend == "sdpa" else attention
    loss = lambda xs, ys: loss_of(p, config, "pre", xs, ys, fn)
    if compile_:
        loss = torch.compile(loss)

    def step():
        opt.zero_grad()
        value = loss(x, y)
        value.backward()
        torch.nn.utils.clip_grad_norm_(list(p.values()), 1.0)
        opt.step()

    def timed(fn, n):
        for _ in range(max(3, n // 10)):
            fn()
        samples = []
        for _ in range(n):
            t = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - t)
        samples.sort()
        return samples[len(samples) // 2]

    n_step, n_forward = (20, 50) if quick else (300, 1000)
    step_s = timed(step, n_step)
    with torch.no_grad():
        fwd16 = timed(lambda: loss(x[:1], y[:1]), n_forward)
        fwd5 = timed(lambda: loss(x[:1, :5], y[:1, :5]), n_forward)
    print(json.dumps({
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "attention": attend,
        "compiled": compile_,
        "train_step_16x16_ms": step_s * 1e3,
        "train_tokens_per_second": 256 / step_s,
        "forward_T16_us": fwd16 * 1e6,
        "forward_T5_us": fwd5 * 1e6,
    }, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transformers", type=Path, help="a model directory tblock train wrote")
    parser.add_argument("--experiments", type=Path, help="a model directory: write the ablation and stream fixture")
    parser.add_argument("--bench", action="store_true", help="time PyTorch eager on this machine")
    parser.add_argument("--quick", action="store_true", help="with --bench: few repetitions (a smoke run)")
    parser.add_argument("--threads", type=int, default=torch.get_num_threads(), help="threads for --bench (default: PyTorch's)")
    parser.add_argument("--attention", choices=["manual", "sdpa"], default="manual",
                        help="with --bench: attention written out (manual) or F.scaled_dot_product_attention (sdpa)")
    parser.add_argument("--compile", action="store_true", help="with --bench: the loss through torch.compile")
    args = parser.parse_args()
    torch.manual_seed(0)
    if args.bench:
        bench(args.threads, args.quick, args.attention, args.compile)
    elif args.transformers:
        write_transformers_logits(args.transformers.resolve())
    elif args.experiments:
        write_experiment_fixtures(args.experiments.resolve())
    else:
        write_training_fixtures()


if __name__ == "__main__":
    main()
