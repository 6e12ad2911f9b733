// Times the wasm facade for `make bench`, the same way in a browser (www/bench.html) and in Node
// (scripts/bench.mjs): TinyGPT's workloads (crate/src/bench.rs, the code criterion times natively)
// and the analytic calls the charts make while a reader drags.
//
//   const rows = await measureWasm(lib, { quick });   // lib: the wasm-bindgen facade
//   // [{ name, what, tokens, flops, ms, samples }]   ms: median time of one run
//
// Each workload first runs for a while unmeasured (250 ms; 60 ms quick), so the engine has moved it
// from its baseline compiler to its optimising one; then each sample runs it enough times to last
// about 20 ms (a browser's clock ticks in steps of up to 0.1 ms); the figure is the median. The numbers it
// reports about the model (tokens, FLOPs) come from the library; this file only keeps time.

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The median time of one call of `fn(reps)` per rep, in ms. */
async function sample(fn, { quick }) {
  const target = quick ? 4 : 20; // ms a sample lasts
  const count = quick ? 3 : 15;
  const warmUntil = performance.now() + (quick ? 60 : 250);
  while (performance.now() < warmUntil) {
    fn(1);
    await nextTask();
  }
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    fn(reps);
    const took = performance.now() - t0;
    if (took >= target || reps >= 10_000) break;
    reps = Math.min(10_000, Math.max(reps * 2, Math.ceil((reps * target) / Math.max(took, 0.01))));
  }
  const times = [];
  for (let i = 0; i < count; i++) {
    await nextTask(); // let a page paint and stay responsive between samples
    const t0 = performance.now();
    fn(reps);
    times.push((performance.now() - t0) / reps);
  }
  return { ms: median(times), samples: count, reps };
}

const ANALYTIC = [
  { name: 'report gpt2-small T=1024', what: "count('gpt2-small', 1024, 1): the report a chart redraws from", call: (lib) => lib.count('gpt2-small', 1024, 1) },
  { name: 'cost-curve gpt2-small 200', what: "cost_curve('gpt2-small', 200): the cost chart's 200 points", call: (lib) => lib.cost_curve('gpt2-small', 200) },
];

const WHAT = {
  'forward-5': 'TinyGPT forward to the loss, T = 5, batch 1',
  'forward-16': 'TinyGPT forward to the loss, T = 16, batch 1',
  'train-step': 'one training step, batch 16 x 16 (forward, backward, clip, AdamW)',
};

export async function measureWasm(lib, { quick = false, onRow = () => {} } = {}) {
  const rows = [];
  for (const name of lib.Workload.names()) {
    const workload = new lib.Workload(name);
    const { tokens, flops } = workload.info();
    const timing = await sample((reps) => workload.run(reps), { quick });
    workload.free();
    rows.push({ name, what: WHAT[name] ?? name, tokens, flops, ...timing });
    onRow(rows.at(-1));
  }
  for (const { name, what, call } of ANALYTIC) {
    const timing = await sample((reps) => {
      for (let i = 0; i < reps; i++) call(lib);
    }, { quick });
    rows.push({ name, what, tokens: null, flops: null, ...timing });
    onRow(rows.at(-1));
  }
  return rows;
}
