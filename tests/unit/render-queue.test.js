// The render queue (www/src/elements/render-queue.js): renders that waited for a fetch take turns,
// a budget of milliseconds a task, so the page's other tasks (a reader's input) come between them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inTurn } from '../../www/src/elements/render-queue.js';
import { nextTask } from '../../www/src/next-task.js';
import { hasSettled, watched } from '../../www/src/settled.js';

/** Keeps the thread busy for `ms` milliseconds, as a render of a widget does. */
function busy(ms) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test('renders taken in turn stop at the budget and let another task in between', async () => {
  const order = [];
  const done = new Promise((resolve) => {
    for (let i = 1; i <= 4; i++) {
      inTurn(() => {
        busy(3);
        order.push(`render ${i}`);
        if (i === 4) resolve();
      });
    }
  });
  // A task asked for after the renders were queued: it comes before the renders past the budget.
  nextTask().then(() => order.push('another task'));
  await done;
  // 4 ms a task: the first render (3 ms) leaves room for a second, whose 6 ms fill the turn (on a
  // busy machine the first alone may); the other task comes then, before the renders past the budget.
  const renders = order.filter((o) => o !== 'another task');
  assert.deepEqual(renders, ['render 1', 'render 2', 'render 3', 'render 4']);
  assert.ok([1, 2].includes(order.indexOf('another task')), `another task after one or two renders: ${order}`);
});

test('a render that throws does not keep the others from their turn', async () => {
  const order = [];
  const errors = [];
  const log = console.error;
  console.error = (err) => errors.push(err.message);
  try {
    await new Promise((resolve) => {
      inTurn(() => {
        throw new Error('broken widget');
      });
      inTurn(() => {
        order.push('next');
        resolve();
      });
    });
  } finally {
    console.error = log;
  }
  assert.deepEqual(order, ['next']);
  assert.deepEqual(errors, ['broken widget']);
});

test('hasSettled: no the first time a promise is asked about, yes once it has settled', async () => {
  const p = Promise.resolve(1);
  assert.equal(hasSettled(p), false);
  await p;
  await null;
  assert.equal(hasSettled(p), true);
  const failed = Promise.reject(new Error('offline'));
  failed.catch(() => {});
  assert.equal(hasSettled(failed), false);
  await nextTask();
  assert.equal(hasSettled(failed), true);
  const pending = new Promise(() => {});
  assert.equal(hasSettled(pending), false);
  await nextTask();
  assert.equal(hasSettled(pending), false);
});

test('watched from its making, a promise is known settled the first time it is asked about', async () => {
  const p = watched(Promise.resolve(1));
  await p;
  await null;
  assert.equal(hasSettled(p), true);
  const failed = watched(Promise.reject(new Error('offline')));
  await failed.catch(() => {});
  await null;
  assert.equal(hasSettled(failed), true);
});
