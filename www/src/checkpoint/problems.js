// A problem of the checkpoint worker, as plain data that crosses postMessage, and worded again on
// the page in each widget's language: the library's message ({ message, tb }), or one of the page's
// own sentences ({ say: { key, values } }, a value itself { key, values } or { bytes: n }).
//
//   worker:  throw said('panels.serverAnswered', { status: '404' });  post({ problem: problemData(err) })
//   page:    problemError(problem)   // client.js: an Error that problemText(err, t) words
//
// Nothing here touches the page: the worker imports it.

/** An error saying catalogue sentence `key` with `values`. */
export function said(key, values = {}) {
  return Object.assign(new Error(key), { say: { key, values } });
}

/** What `err` says, as plain data. */
export function problemData(err) {
  if (err?.say) return { message: err.message, say: err.say };
  return { message: err instanceof Error ? err.message : String(err), tb: err?.tb };
}
