// When the elements render (base.js): first renders screen first, then the rest in the background,
// and renders that waited on a fetch in turns, so no task renders a page of widgets at once.
//
// - firstRenders: each connected element waits until it nears the viewport or the background pass
//   reaches it. The pass runs in the page's idle time (requestIdleCallback), starts one element at a
//   time and waits for its render before it looks at the clock, a few milliseconds of renders a
//   slice (starting only queues a render: a budget of starts let one task render every widget, 150
//   of them, 200 ms on a fast machine).
// - The first element waiting makes the page load its number data (format.js: loadNumberData) in
//   a task of its own, before any render.
// - inTurn: the renders of elements that waited for the library (or a catalog) to arrive, a few
//   milliseconds of them a task, in the order they asked, instead of all in the task the fetch
//   settles in.

import { nextTask } from '../next-task.js';
import { rendersLast } from '../facade-needs.js';
import { loadNumberData } from '../format.js';
import { farFromView } from '../far-from-view.js';

/**
 * Milliseconds of renders a task, for the background pass and for the renders taken in turns. A
 * phone runs each task four times as long as this machine: 8 ms of small renders here made tasks of
 * 40 to 55 ms there (Lighthouse's mobile run multiplies the tasks it saw by 4), 4 ms keeps them under
 * 50 but for a render that alone is longer.
 */
const BUDGET_MS = 4;
/** The longest the background pass waits for the page to be idle before it takes a slice anyway. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Calls `slice(budget)` when the page is idle (requestIdleCallback), with the milliseconds it may
 * take: what is left of the idle period, at most BUDGET_MS; where the browser has no idle callbacks
 * (Safari), in a task of its own with BUDGET_MS.
 */
function whenIdle(slice) {
  if (typeof requestIdleCallback !== 'function') return setTimeout(() => slice(BUDGET_MS), 0);
  return requestIdleCallback((deadline) => slice(Math.max(1, Math.min(BUDGET_MS, deadline.timeRemaining()))), { timeout: IDLE_TIMEOUT_MS });
}

/** Lets an element render: its first render was held back until firstRenders reached it. */
export const START = Symbol('start');

/** The renders waiting for their turn, oldest first, and whether a pump is taking them. */
const turns = [];
let pumping = false;

async function pump() {
  pumping = true;
  while (turns.length) {
    await nextTask();
    const until = performance.now() + BUDGET_MS;
    do {
      try {
        turns.shift()();
      } catch (err) {
        // A render's own errors are shown by the element; this keeps the others' turns coming.
        console.error(err);
      }
    } while (turns.length && performance.now() < until);
  }
  pumping = false;
}

/** Runs `render` (synchronous) in a later task, with others queued the same way, a budget a task. */
export function inTurn(render) {
  turns.push(render);
  if (!pumping) pump();
}

/**
 * The queue of first renders. Each connected element waits here until it is near the viewport (an
 * IntersectionObserver with a screen's margin) or until the background pass reaches it, whichever
 * comes first. Where the observer does not exist (an old browser, a test DOM) it renders at once.
 * A prerendered element that runs TinyGPT (needs(): not 'analytic') shows its figures already: the background
 * pass takes it last, once every other widget is live, so the whole facade is fetched after the
 * page's first renders, unless it nears the viewport or the reader touches it (focus, pointer or
 * key) before.
 */
export const firstRenders = (() => {
  const waiting = new Set();
  let observer = null;
  let passScheduled = false;
  let passing = false;
  const TOUCH = ['focusin', 'pointerdown', 'keydown'];

  const rendering = new Set(); // started, first render not shown yet
  const start = (el) => {
    if (!waiting.delete(el)) return;
    rendering.add(el);
    el.rendered.then(() => {
      rendering.delete(el);
      farFromView.delete(el); // it may be near by its next render
    });
    observer?.unobserve(el);
    for (const type of TOUCH) el.removeEventListener(type, touched, true);
    el[START]();
  };
  // A press (pointer down to up) starts the widget once it is over: taken over mid-press, the
  // press's own events (its focus, its click) would reach a node no longer in the page and be lost.
  // Over, the prerendered DOM has noted its click or input, which the live render replays, and the
  // control it focused is focused again in the live one (base.js).
  let pressing = false;
  const pressed = (el) => {
    pressing = true;
    const over = () => {
      removeEventListener('pointerup', over, true);
      removeEventListener('pointercancel', over, true);
      setTimeout(() => {
        pressing = false;
        start(el);
      }, 0);
    };
    addEventListener('pointerup', over, true);
    addEventListener('pointercancel', over, true);
  };
  function touched(event) {
    if (event.type === 'pointerdown') return pressed(event.currentTarget);
    if (event.type === 'focusin' && pressing) return; // the press's own focus: started when it is over
    start(event.currentTarget);
  }
  const later = (el) => rendersLast(el.needs(), el.prerendered);
  const pass = async (budget) => {
    passScheduled = false;
    if (passing) return; // the pass under way schedules the next one
    const until = performance.now() + budget;
    // Every other widget first: the whole facade is fetched once they are all live.
    const rest = [...waiting].filter((el) => !later(el));
    const others = [...rendering].filter((el) => !later(el));
    if (!rest.length && others.length) {
      // (Or 2 s on: a widget taken out of the page before it rendered never will.)
      Promise.race([Promise.all(others.map((el) => el.rendered)), new Promise((resolve) => setTimeout(resolve, 2000))]).then(schedulePass);
      return;
    }
    passing = true;
    for (const el of rest.length ? rest : [...waiting]) {
      if (performance.now() > until) break;
      start(el);
      // Its render runs in this task's microtasks when the library is here; one that waits for a
      // fetch renders in turn later (inTurn), and the pass goes on in a task of its own.
      await Promise.race([el.rendered, nextTask()]);
    }
    passing = false;
    if (waiting.size) schedulePass();
  };
  const schedulePass = () => {
    if (passScheduled) return;
    passScheduled = true;
    whenIdle(pass);
  };
  return {
    add(el) {
      if (typeof IntersectionObserver !== 'function') return el[START]();
      // The number data in a task before the first render, which would otherwise pay for it.
      if (!observer) setTimeout(() => loadNumberData(document.documentElement.lang), 0);
      observer ??= new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) farFromView.add(entry.target);
            else {
              farFromView.delete(entry.target);
              start(entry.target);
            }
          }
        },
        { rootMargin: '100% 0px' },
      );
      waiting.add(el);
      observer.observe(el);
      for (const type of TOUCH) el.addEventListener(type, touched, true);
      schedulePass();
    },
    /** An element waiting here whose attributes changed: its prerendered DOM no longer holds, render now. */
    changed(el) {
      if (waiting.has(el) && el.prerendered) start(el);
    },
    delete(el) {
      if (!waiting.delete(el)) return;
      observer?.unobserve(el);
      for (const type of TOUCH) el.removeEventListener(type, touched, true);
    },
  };
})();
