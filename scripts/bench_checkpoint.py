"""The Python half of `make bench-checkpoint` (scripts/bench-checkpoint.mjs runs it with
tests/reference/.venv/bin/python): writes the random Qwen2-0.5B-shaped bf16 checkpoint, cuts the
text, and times the PyTorch peer. Each subcommand prints one JSON object on stdout.

  write DIR            the checkpoint (seeded random init, bf16, one model.safetensors) and the
                       fixture's tokenizer.json into DIR; reused when DIR already holds the same
                       spec (its bench-spec.json), since writing takes a while (14 s here, 2 GB of memory)
  text OUT --tokens N  the shortest prefix of the lesson prose that the tokenizer turns into at least
                       N tokens, written to OUT (--dir DIR: that checkpoint's tokenizer)
  peer DIR TEXT        transformers' forward of the first CONTEXT + 1 token ids of TEXT, labels
                       given (so the loss too): load time, the median forward over --runs after a
                       warm-up, the loss, and this process's peak RSS (one process a configuration)
  write DIR --spec gpt2-small
                       GPT-2 small's shape instead (124 M parameters, f32, 475 MiB), for the ablation
  write DIR --spec smollm-360m
                       SmolLM-360M's shape (a Llama, bf16, 690 MiB), for eval with no flags
  ablate-peer DIR TEXT the lesson's ablation as a PyTorch user writes it: 25 forwards of the model
                       (intact, then each of 12 blocks removed and overwritten, a block swapped for a
                       wrapper; --dtype f32 or bf16), the losses, the time and peak RSS

Nothing here is committed: the checkpoint lives under /tmp, the results in bench/checkpoint.json.
"""

import argparse
import json
import resource
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOKENIZER = ROOT / "tests" / "reference" / "fixtures" / "checkpoints" / "qwen2" / "tokenizer.json"
PROSE = ROOT / "crate" / "data" / "lesson-prose.txt"

# Qwen2-0.5B's shape (its config.json on the hub), random weights. Changing anything here makes the
# next run write the checkpoint again.
SPEC = {
    "family": "qwen2",
    "seed": 0,
    "dtype": "bfloat16",
    "max_shard_size": "4GB",
    "config": {
        "hidden_size": 896,
        "intermediate_size": 4864,
        "num_hidden_layers": 24,
        "num_attention_heads": 14,
        "num_key_value_heads": 2,
        "vocab_size": 151936,
        "max_position_embeddings": 32768,
        "tie_word_embeddings": True,
        "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0},
        "rms_norm_eps": 1e-06,
        "bos_token_id": 151643,
        "eos_token_id": 151643,
        "use_sliding_window": False,
    },
}
# GPT-2 small's shape (openai-community/gpt2), random weights, f32: the ablation's benchmark.
GPT2_SMALL = {
    "family": "gpt2",
    "seed": 0,
    "dtype": "float32",
    "max_shard_size": "4GB",
    "config": {
        "n_embd": 768,
        "n_layer": 12,
        "n_head": 12,
        "n_positions": 1024,
        "vocab_size": 50257,
        "layer_norm_epsilon": 1e-05,
        "activation_function": "gelu_new",
        "bos_token_id": 50256,
        "eos_token_id": 50256,
    },
}
# SmolLM-360M's shape (HuggingFaceTB/SmolLM-360M: Llama, grouped-query 15/5, tied head), random
# weights, bf16: what `tblock eval` runs with no flags on a bf16 checkpoint (--compute auto).
SMOLLM_360M = {
    "family": "llama",
    "seed": 0,
    "dtype": "bfloat16",
    "max_shard_size": "4GB",
    "config": {
        "hidden_size": 960,
        "intermediate_size": 2560,
        "num_hidden_layers": 32,
        "num_attention_heads": 15,
        "num_key_value_heads": 5,
        "vocab_size": 49152,
        "max_position_embeddings": 2048,
        "tie_word_embeddings": True,
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
        "rms_norm_eps": 1e-05,
        "bos_token_id": 0,
        "eos_token_id": 0,
    },
}
SPECS = {"qwen2-0.5b": SPEC, "gpt2-small": GPT2_SMALL, "smollm-360m": SMOLLM_360M}
SPEC_FILE = "bench-spec.json"


def peak_rss_mib():
    # Linux reports ru_maxrss in KiB.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class ResidentSampler:
    """The most of this process's resident memory that was anonymous and file-backed (RssAnon,
    RssFile in /proc/self/status, MiB), sampled every 50 ms on a thread of its own."""

    def __init__(self):
        import threading

        self.most = {"RssAnon": 0, "RssFile": 0}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def sample(self):
        for line in Path("/proc/self/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in self.most:
                self.most[key] = max(self.most[key], int(value.split()[0]) / 1024)

    def run(self):
        while not self.stop.wait(0.05):
            self.sample()

    def done(self):
        self.stop.set()
        self.thread.join()
        self.sample()
        return self.most["RssAnon"], self.most["RssFile"]


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def safetensors_files(directory):
    return sorted(p for p in Path(directory).glob("*.safetensors"))


def describe(directory, reused, seconds, spec):
    files = safetensors_files(directory)
    return {
        "dir": str(directory),
        "reused": reused,
        "write_seconds": seconds,
        "files": [p.name for p in files],
        "mapped_bytes": sum(p.stat().st_size for p in files),
        "spec": spec,
    }


def cmd_write(args):
    spec = SPECS[args.spec]
    directory = Path(args.dir)
    stamp = directory / SPEC_FILE
    if stamp.exists() and safetensors_files(directory) and (directory / "tokenizer.json").exists():
        try:
            if json.loads(stamp.read_text()) == spec:
                return describe(directory, True, 0.0, spec)
        except ValueError:
            pass

    import torch
    from transformers import AutoModelForCausalLM, GPT2Config, LlamaConfig, Qwen2Config

    started = time.perf_counter()
    partial = directory.with_name(directory.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    torch.manual_seed(spec["seed"])
    config = {"qwen2": Qwen2Config, "gpt2": GPT2Config, "llama": LlamaConfig}[spec["family"]](**spec["config"])
    model = AutoModelForCausalLM.from_config(config, dtype=getattr(torch, spec["dtype"]))
    model.save_pretrained(partial, max_shard_size=spec["max_shard_size"])
    del model
    gen = partial / "generation_config.json"
    if gen.exists():
        gen.unlink()
    # A small tokenizer of the family (384 tokens; every id is a row of the real vocabulary).
    shutil.copyfile(TOKENIZER.parent.parent / spec["family"] / "tokenizer.json", partial / "tokenizer.json")
    (partial / SPEC_FILE).write_text(json.dumps(spec, indent=2) + "\n")
    shutil.rmtree(directory, ignore_errors=True)
    partial.rename(directory)
    return describe(directory, False, time.perf_counter() - started, spec)


def encode(tokenizer_json, text):
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(tokenizer_json)).encode(text, add_special_tokens=False).ids


def cmd_text(args):
    prose = PROSE.read_text(encoding="utf-8")
    tokenizer = Path(args.dir) / "tokenizer.json" if args.dir else TOKENIZER
    count = lambda k: len(encode(tokenizer, prose[:k]))
    if count(len(prose)) < args.tokens:
        sys.exit(f"bench_checkpoint.py text: the prose makes fewer than {args.tokens} tokens")
    lo, hi = 1, len(prose)  # the smallest k with count(k) >= tokens
    while lo < hi:
        mid = (lo + hi) // 2
        if count(mid) >= args.tokens:
            hi = mid
        else:
            lo = mid + 1
    text = prose[:lo]
    Path(args.out).write_text(text, encoding="utf-8")
    return {"text": str(args.out), "chars": len(text), "tokens": count(lo)}


def window_ids(args, command):
    """The first CONTEXT + 1 token ids of the text, as a [1, CONTEXT + 1] tensor, on args.threads."""
    import torch

    torch.set_num_threads(args.threads)
    ids = encode(Path(args.dir) / "tokenizer.json", Path(args.text).read_text(encoding="utf-8"))
    window = args.context + 1
    if len(ids) < window:
        sys.exit(f"bench_checkpoint.py {command}: {len(ids)} tokens make no window of {window}")
    return torch.tensor([ids[:window]], dtype=torch.long)


def cmd_peer(args):
    import torch
    from transformers import AutoModelForCausalLM

    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    directory = Path(args.dir)
    ids = window_ids(args, "peer")

    sampler = ResidentSampler()
    started = time.perf_counter()
    model = AutoModelForCausalLM.from_pretrained(directory, dtype=dtype)
    model.eval()
    load_seconds = time.perf_counter() - started

    def forward():
        # Labels given, so transformers computes the loss too. shift_labels scores all N positions
        # of the window of N + 1 tokens, as tblock does (labels alone would score N - 1).
        t0 = time.perf_counter()
        with torch.inference_mode():
            out = model(input_ids=ids[:, :-1], labels=ids[:, :-1], shift_labels=ids[:, 1:])
        return time.perf_counter() - t0, out.loss.item()

    forward()  # warm-up
    runs = [forward() for _ in range(args.runs)]
    seconds = [r[0] for r in runs]
    anonymous, file_backed = sampler.done()
    return {
        "torch": torch.__version__,
        "transformers": __import__("transformers").__version__,
        "attention": model.config._attn_implementation,
        "dtype": args.dtype,
        "threads": torch.get_num_threads(),
        "tokens": args.context,
        "load_seconds": load_seconds,
        "forward_seconds": statistics.median(seconds),
        "forward_seconds_all": seconds,
        "loss": runs[-1][1],
        "peak_rss_mib": peak_rss_mib(),
        "peak_anonymous_mib": anonymous,
        "peak_file_backed_mib": file_backed,
        "process_cpu_seconds": cpu_seconds(),
    }


def cmd_ablate_peer(args):
    """The ablation as a PyTorch user writes it: one forward with every block intact, then for each
    block one with the block skipped and one with it overwriting the stream (x = attn(ln_1(x)), then
    x = mlp(ln_2(x)), no residual adds), the block swapped for a wrapper for that forward."""
    import torch
    from transformers import AutoModelForCausalLM

    directory = Path(args.dir)
    ids = window_ids(args, "ablate-peer")

    class Changed(torch.nn.Module):
        def __init__(self, block, mode):
            super().__init__()
            self.block, self.mode = block, mode

        def forward(self, hidden_states, cache=None, attention_mask=None, *rest, use_cache=False, **kwargs):
            if self.mode == "removed":
                return hidden_states
            b = self.block
            x, _ = b.attn(b.ln_1(hidden_states), cache=cache, attention_mask=attention_mask, use_cache=use_cache, **kwargs)
            return b.mlp(b.ln_2(x))

    sampler = ResidentSampler()
    started = time.perf_counter()
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    model = AutoModelForCausalLM.from_pretrained(directory, dtype=dtype)
    model.eval()
    load_seconds = time.perf_counter() - started
    blocks = model.transformer.h

    def loss():
        with torch.inference_mode():
            return model(input_ids=ids[:, :-1], labels=ids[:, :-1], shift_labels=ids[:, 1:]).loss.item()

    t0 = time.perf_counter()
    intact = loss()
    changed = []
    for i in range(len(blocks)):
        pair = {"block": i}
        for mode in ["removed", "overwritten"]:
            original = blocks[i]
            blocks[i] = Changed(original, mode)
            try:
                pair[mode] = loss()
            finally:
                blocks[i] = original
        changed.append(pair)
    seconds = time.perf_counter() - t0
    anonymous, file_backed = sampler.done()
    return {
        "torch": torch.__version__,
        "transformers": __import__("transformers").__version__,
        "threads": torch.get_num_threads(),
        "tokens": args.context,
        "forwards": 1 + 2 * len(blocks),
        "load_seconds": load_seconds,
        "ablation_seconds": seconds,
        "intact": intact,
        "blocks": changed,
        "peak_rss_mib": peak_rss_mib(),
        "peak_anonymous_mib": anonymous,
        "peak_file_backed_mib": file_backed,
        "process_cpu_seconds": cpu_seconds(),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("dir")
    w.add_argument("--spec", choices=sorted(SPECS), default="qwen2-0.5b")
    t = sub.add_parser("text")
    t.add_argument("out")
    t.add_argument("--tokens", type=int, default=1025)
    t.add_argument("--dir", help="a checkpoint whose tokenizer counts the tokens (default: the Qwen2 fixture's)")
    p = sub.add_parser("peer")
    p.add_argument("dir")
    p.add_argument("text")
    p.add_argument("--context", type=int, default=1024)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    p.add_argument("--runs", type=int, default=3)
    a = sub.add_parser("ablate-peer")
    a.add_argument("dir")
    a.add_argument("text")
    a.add_argument("--context", type=int, default=1024)
    a.add_argument("--threads", type=int, default=1)
    a.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    args = parser.parse_args()
    commands = {"write": cmd_write, "text": cmd_text, "peer": cmd_peer, "ablate-peer": cmd_ablate_peer}
    out = commands[args.cmd](args)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
