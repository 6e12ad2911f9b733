// Which widgets were far from the viewport (more than a screen away) when they went live, as the
// render queue's observer last saw them (elements/render-queue.js), until their first render is
// shown: the maps they draw on canvases wait until they come near (charts/map-canvas.js), so a widget
// that goes live in the background does not paint two dozen maps no one sees yet.

/** Elements (widgets) more than a screen from the viewport, until their first render. */
export const farFromView = new WeakSet();
