// Every widget, for a page that wants them all with one script tag:
//
//   <script type="module" src="src/elements/index.js"></script>
//
// Each file defines its own element (and only once, so importing one of them on its own as well is
// harmless). They share one wasm instance, loaded on first use (../wasm.js).
//
// Every widget's English first, in one run (each widget's module brings its own too: ../i18n.js),
// so that a bundle of every widget holds the catalog's texts side by side: 1.1 KB less gzipped than
// with each widget's texts beside its code.
import { speakEnglish } from '../i18n.js';
import english from '../locales/en/index.js';
import './anatomy.js'; // <tb-anatomy>
import './param-table.js'; // <tb-param-table>
import './cost-chart.js'; // <tb-cost-chart>
import './memory.js'; // <tb-memory>
import './training-cost.js'; // <tb-training-cost>
import './example.js'; // <tb-example name="…">
import './moe.js'; // <tb-moe>
import './masks.js'; // <tb-masks>
import './tiny-gpt.js'; // <tb-tiny-gpt>
import './attention.js'; // <tb-attention>
import './number.js'; // <tb-number>
import './train.js'; // <tb-train>
import './ablation.js'; // <tb-ablation>
import './stream.js'; // <tb-stream>
import './norm-race.js'; // <tb-norm-race>
import './depth-latency.js'; // <tb-depth-latency>

speakEnglish(english);
