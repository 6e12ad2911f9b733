"""The ONNX peer of `make bench-checkpoint-page` (scripts/bench-checkpoint-page.mjs runs it with
tests/reference/.venv/bin/python, which needs onnx and onnxscript besides requirements-torch.txt):
exports the GPT-2-small-shaped folder the bench reads to one ONNX model for onnxruntime-web, the
engine Transformer Explainer runs GPT-2 on.

  export DIR OUT   DIR's model.safetensors as OUT (model.onnx, f32): input_ids [1, T] (T free) ->
                   next_logits [1, V] (the last position's logits, as the page's forward gives the
                   next token) and attentions [L, 1, H, T, T] (every block's weights, as the page's
                   forward shows them): the same work PageCheckpoint.inspect does

Prints one JSON object; nothing here is committed (the model lives beside the checkpoint under /tmp).
"""

import argparse
import json
import time
from pathlib import Path


def cmd_export(args):
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(Path(args.dir), dtype=torch.float32, attn_implementation="eager")
    model.eval()

    class Inspect(torch.nn.Module):
        """The page's forward: the last position's logits and every block's attention weights."""

        def __init__(self, lm):
            super().__init__()
            self.lm = lm

        def forward(self, input_ids):
            out = self.lm.transformer(input_ids=input_ids, output_attentions=True, use_cache=False)
            next_logits = self.lm.lm_head(out.last_hidden_state[:, -1])  # [1, V]
            return next_logits, torch.stack(out.attentions)  # [L, 1, H, T, T]

    ids = torch.arange(16, dtype=torch.long).unsqueeze(0) % model.config.vocab_size
    started = time.perf_counter()
    with torch.no_grad():
        torch.onnx.export(
            Inspect(model),
            (ids,),
            args.out,
            input_names=["input_ids"],
            output_names=["next_logits", "attentions"],
            dynamic_shapes={"input_ids": {1: torch.export.Dim("tokens", min=2, max=model.config.n_positions)}},
            dynamo=True,
            external_data=False,
        )
    return {"torch": torch.__version__, "out": args.out, "bytes": Path(args.out).stat().st_size, "seconds": time.perf_counter() - started}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export")
    e.add_argument("dir")
    e.add_argument("out")
    args = parser.parse_args()
    print(json.dumps({"export": cmd_export}[args.cmd](args)))


if __name__ == "__main__":
    main()
