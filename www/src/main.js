// The lesson page's one script as www/ serves it: every <tb-…> widget (elements/index.js), then the
// page's own table of presets. The deployable site (make site) loads the same two through the
// folder's autoloader and its own module instead, each widget's module as the page meets it.

import './elements/index.js';
import './presets-table.js';
