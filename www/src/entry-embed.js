// Entry point of dist/transformer-block.js, the one-tag embedding (`make dist`): every <tb-…>
// element, defined on load. esbuild bundles it as one classic script (an IIFE) with the wasm bytes
// inside; scripts/dist/bundle.mjs swaps ./wasm.js for a loader that instantiates those bytes.

import './elements/index.js';
