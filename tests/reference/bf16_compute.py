"""The checkpoint fixtures' experiments computed as `tblock --compute bf16` defines them: every
product of a linear layer (and of the head) takes its input and its weights rounded to bf16 and
sums exactly; everything else (the stream, the norms, attention, the loss) stays as the float64
reference of make_checkpoints.py computes it. Writes expected-bf16.json beside each fixture's
expected.json, for crate/tests/checkpoints.rs.

    tests/reference/.venv/bin/python tests/reference/bf16_compute.py

An independent statement of the arithmetic, in PyTorch, of what the kernels' bf16 products
(kernels/src/product/) compute with vdpbf16ps: it shares no code with them.
"""

import json
import math

import torch
from tokenizers import Tokenizer

from make_checkpoints import OUT, Reference, experiments, read_text, write_text

FAMILIES = ["gpt2", "llama", "qwen2", "mistral"]


def bf16(t):
    """t rounded to the nearest bf16 (ties to even), back in float64."""
    return t.to(torch.bfloat16).to(torch.float64)


class Bf16Products(Reference):
    """The reference with every product of a layer's input and its weights in bf16."""

    def linear(self, x, name, bias):
        y = bf16(x) @ bf16(self.w[name + ".weight"]).T
        return y + self.w[name + ".bias"] if bias else y

    def conv1d(self, x, name):
        return bf16(x) @ bf16(self.w[name + ".weight"]) + self.w[name + ".bias"]

    def attn(self, i, x):
        if self.family != "gpt2":
            return super().attn(i, x)
        l = f"{self.p}h.{i}."
        h = self.layer_norm(x, l + "ln_1")
        q, k, v = self.conv1d(h, l + "attn.c_attn").split(self.d, dim=-1)
        o = self.merge(self.attend(self.split(q, self.heads), self.split(k, self.heads), self.split(v, self.heads)))
        return self.conv1d(o, l + "attn.c_proj")

    def mlp(self, i, x):
        if self.family != "gpt2":
            return super().mlp(i, x)
        l = f"{self.p}h.{i}."
        u = self.conv1d(self.layer_norm(x, l + "ln_2"), l + "mlp.c_fc")
        u = 0.5 * u * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u**3)))
        return self.conv1d(u, l + "mlp.c_proj")

    def head(self, x):
        if self.family == "gpt2":
            return bf16(self.layer_norm(x, self.p + "ln_f")) @ bf16(self.w[self.p + "wte.weight"]).T
        h = self.rms_norm(x, "model.norm")
        table = self.w["model.embed_tokens.weight"] if self.tied else self.w["lm_head.weight"]
        return bf16(h) @ bf16(table).T


def main():
    for family in FAMILIES:
        directory = OUT / family
        tok = Tokenizer.from_file(str(directory / "tokenizer.json"))
        ids = tok.encode(read_text(OUT / "eval.txt"), add_special_tokens=False).ids
        result = experiments(Bf16Products(directory), ids)
        plain = experiments(Reference(directory), ids)
        expected = {k: result[k] for k in ["eval", "ablate", "stream"]}
        body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in expected.items())
        write_text(directory / "expected-bf16.json", "{\n" + body + "\n}\n")
        print(f"{family}: loss {result['eval']['loss']:.6f} in bf16 products, {plain['eval']['loss']:.6f} in float64")


if __name__ == "__main__":
    main()
