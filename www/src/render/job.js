// What render.js puts in a page worker's workerData, so that page-worker.js knows it was started
// to render a page (imported anywhere else, it does nothing).
export const JOB = 'transformer-block: render a page';
