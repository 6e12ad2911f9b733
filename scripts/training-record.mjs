#!/usr/bin/env node
// `make weights`: the record kept beside the shipped weights (crate/data/tiny-gpt/training.json):
// what `tblock train` printed, without what differs from run to run (the time it took and where it
// wrote), plus the held-out loss of the weights as shipped (fp16), from `tblock eval`.
//
//   node scripts/training-record.mjs TRAIN.json EVAL.json "SETTINGS" > training.json
import { readFileSync } from 'node:fs';

const [trainPath, evalPath, settings = ''] = process.argv.slice(2);
const train = JSON.parse(readFileSync(trainPath, 'utf8'));
const shipped = JSON.parse(readFileSync(evalPath, 'utf8'));
for (const key of ['seconds', 'tokens_per_second', 'out']) delete train[key];
train.val_loss_as_shipped = shipped.loss;
train.command = `tblock train ${settings}`.trim();
process.stdout.write(`${JSON.stringify(train, null, 2)}\n`);
