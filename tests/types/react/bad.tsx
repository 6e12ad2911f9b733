// Each line a mistake an author makes; each must fail type-checking on its line (framework-types.spec.js).
import type {} from 'transformer-block/jsx';

export const misspeltAttribute = <tb-masks tokenz={3} />;
export const valueOutsideEnum = <tb-number format="compactt" />;
export const misspeltPreset = <tb-anatomy model="gpt2-smal" />;
export const notANumber = <tb-masks tokens="three" />;
