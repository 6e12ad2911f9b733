#!/usr/bin/env python3
"""What transformers itself shows inside each fixture checkpoint reading one short text: the
reference for `tblock inspect --weights <checkpoint folder>` (crate/tests/checkpoints.rs).

For each of fixtures/checkpoints/{gpt2,llama,qwen2,mistral}: AutoModelForCausalLM.from_pretrained
of the folder in float32 with eager attention (so it returns the weights), the folder's own
tokenizer.json (tokenizers library, no special tokens added), one forward pass over TEXT with
output_attentions and output_hidden_states. Written to fixtures/checkpoints/<name>/inspect.json:
  text, ids,
  attentions     [L][H][T][T]  each block's attention weights (row: query, column: key)
  hidden_states  [L+1][T][d]   the stream entering block 0, after each block, the last one after
                               the final norm (transformers' convention)
  next           the ten likeliest next tokens after the whole text: {id, probability}, likeliest
                 first (softmax of the last position's logits, in float64)

Usage (from the repository root; a venv with requirements-torch.txt):
  tests/reference/.venv/bin/python tests/reference/checkpoint_inspect.py
"""

import json
from pathlib import Path

import torch
from tokenizers import Tokenizer
from transformers import AutoModelForCausalLM

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "reference" / "fixtures" / "checkpoints"
# A sentence of the lesson's own subject, short enough that the JSON stays small (under 20 tokens
# with the fixtures' 384-token vocabulary), long enough that Mistral's window of 8 cuts it.
TEXT = "Attention is the only stage that mixes positions."
TOP = 10

torch.set_num_threads(1)


def rounded(x, digits=7):
    if isinstance(x, list):
        return [rounded(v, digits) for v in x]
    return float(f"{x:.{digits}g}")


def main():
    for name in ["gpt2", "llama", "qwen2", "mistral"]:
        folder = FIXTURES / name
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        ids = tokenizer.encode(TEXT, add_special_tokens=False).ids
        model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, attn_implementation="eager")
        model.eval()
        with torch.no_grad():
            out = model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
        probabilities = torch.softmax(out.logits[0, -1].double(), dim=-1)
        top = torch.topk(probabilities, TOP)
        inspection = {
            "text": TEXT,
            "ids": ids,
            "attentions": [rounded(a[0].tolist()) for a in out.attentions],
            "hidden_states": [rounded(h[0].tolist()) for h in out.hidden_states],
            "next": [{"id": int(i), "probability": rounded(float(p), 9)} for p, i in zip(top.values, top.indices)],
        }
        (folder / "inspect.json").write_text(json.dumps(inspection) + "\n")
        print(f"{name}: {len(ids)} tokens, {len(out.attentions)} blocks -> {folder / 'inspect.json'}")


if __name__ == "__main__":
    main()
