// PyTorch beside TinyGPT in make bench and make bench-training: the same model and step in float32 on
// this machine (tests/reference/train_reference.py --bench), written three ways a PyTorch user might:
// attention written out by hand (the fixtures' reference), F.scaled_dot_product_attention (SDPA), and
// SDPA with the loss through torch.compile (inductor; about half a minute to compile here, so a quick
// run leaves it out). Each on one thread and on every core. Needs tests/reference/.venv with torch;
// without it, returns a note saying so.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

import { ROOT } from './browser.mjs';

const PYTHON = join(ROOT, 'tests', 'reference', '.venv', 'bin', 'python');
const SCRIPT = join(ROOT, 'tests', 'reference', 'train_reference.py');

/** The variants timed: [label, arguments]. */
function variants(quick) {
  const threads = [...new Set([1, cpus().length])];
  const plural = (t) => `${t} thread${t > 1 ? 's' : ''}`;
  const out = [];
  for (const t of threads) out.push([`eager, attention by hand, ${plural(t)}`, ['--threads', String(t)]]);
  for (const t of threads) out.push([`eager, SDPA, ${plural(t)}`, ['--threads', String(t), '--attention', 'sdpa']]);
  if (!quick) out.push(['torch.compile, SDPA, 1 thread', ['--threads', '1', '--attention', 'sdpa', '--compile']]);
  return out;
}

/**
 * Runs each variant: { available, note, rows: [{ label, torch, train_step_16x16_ms, forward_T16_us,
 * forward_T5_us, ... }] }. A variant that fails (torch.compile without a compiler, say) is a row with
 * an `error`.
 */
export function torchPeers({ quick = false } = {}) {
  if (!existsSync(PYTHON)) return { available: false, note: 'skipped: no tests/reference/.venv with torch (tests/reference/README.md says how to make one)', rows: [] };
  try {
    execFileSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' });
  } catch {
    return { available: false, note: 'skipped: tests/reference/.venv has no torch', rows: [] };
  }
  const rows = [];
  for (const [label, args] of variants(quick)) {
    try {
      const out = execFileSync(PYTHON, [SCRIPT, '--bench', ...args, ...(quick ? ['--quick'] : [])], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
      rows.push({ label, ...JSON.parse(out) });
    } catch (err) {
      rows.push({ label, error: String(err.message).split('\n')[0] });
    }
  }
  return { available: true, note: 'measured', rows };
}
