// tb-masks' kept results (www/src/elements/masks-results.js): each count and position asked of the
// library once, the rest of the slider's range asked for ahead in idle time (here a timer: Node has
// no requestIdleCallback), and an error thrown each time, never kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { masksResults } from '../../www/src/elements/masks-results.js';

/** A stand-in for the wasm facade: records its calls, refuses counts over 16 as the library does. */
function fakeLibrary() {
  const calls = [];
  return {
    calls,
    example_masks(count, position, seed) {
      calls.push([count, position, seed]);
      if (count > 16) throw new Error('tokens must be 1 to 16');
      return { count, position, seed };
    },
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 200));

test('a result is asked for once and then read from what is kept', () => {
  const lib = fakeLibrary();
  const results = masksResults(lib, 7);
  const first = results.get(5, 4);
  assert.deepEqual(first, { count: 5, position: 4, seed: 7 });
  assert.equal(results.get(5, 4), first);
  assert.deepEqual(lib.calls, [[5, 4, 7]]);
  results.get(5, 3);
  assert.equal(lib.calls.length, 2);
});

test('an error is thrown each time it is asked for, and not kept', () => {
  const lib = fakeLibrary();
  const results = masksResults(lib, 7);
  assert.throws(() => results.get(17, 16), /1 to 16/);
  assert.throws(() => results.get(17, 16), /1 to 16/);
  assert.equal(lib.calls.length, 2);
});

test('prefetch asks for what is not kept yet, later, and a second prefetch replaces the first', async () => {
  const lib = fakeLibrary();
  const results = masksResults(lib, 7);
  results.get(2, 1);
  results.prefetch([
    [1, 0],
    [2, 1],
    [3, 2],
  ]);
  assert.deepEqual(lib.calls, [[2, 1, 7]], 'nothing is asked for in the same task');
  results.prefetch([
    [4, 3],
    [5, 4],
  ]);
  await settled();
  assert.deepEqual(lib.calls, [
    [2, 1, 7],
    [4, 3, 7],
    [5, 4, 7],
  ]);
  results.get(5, 4);
  assert.equal(lib.calls.length, 3);
});

test('a prefetch stops at the first refusal; the live call names the problem', async () => {
  const lib = fakeLibrary();
  const results = masksResults(lib, 7);
  results.prefetch([
    [16, 15],
    [17, 16],
    [3, 2],
  ]);
  await settled();
  assert.deepEqual(
    lib.calls.map(([count]) => count),
    [16, 17],
  );
});
