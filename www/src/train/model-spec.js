// A character model built from its description (train/models.js: modelSpec), on whichever thread
// runs this: the page's, or a worker's, which has no page state (no stores, no localStorage), so this
// file imports nothing.

/** The CharModel a description names (modelSpec's), on whichever thread runs this. */
export function modelFromSpec(lib, spec) {
  switch (spec.source) {
    case 'files':
      return fromFiles(lib, spec);
    case 'untrained':
      return lib.CharModel.untrained(spec.seed);
    case 'trained':
      return lib.CharModel.from_parameters(spec.settings, new Float32Array(spec.parameters));
    case 'six-blocks':
      return lib.CharModel.six_blocks();
    default:
      return lib.CharModel.shipped();
  }
}

/** A checkpoint's files ({ weights, config, vocab }, as the stores keep them) as a CharModel. */
function fromFiles(lib, files) {
  return lib.CharModel.from_checkpoint(new Uint8Array(files.weights), files.config ?? undefined, files.vocab ?? undefined);
}
