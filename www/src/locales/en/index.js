// English: every text the widgets show, by key, one file a widget (or a shared concern). The other
// catalogs (fr/, zh-CN/) hold the same keys (a unit test checks); an entry that is an object is a
// plural, chosen by Intl.PluralRules on the value `count` ({ one, other }, and the other categories a
// language has). {name} is a value. Keys: widget.what (base: every widget; parse: numbers a reader
// types).

import shared from './shared.js';
import masks from './masks.js';
import trainingCost from './training-cost.js';
import memory from './memory.js';
import costChart from './cost-chart.js';
import moe from './moe.js';
import paramTable from './param-table.js';
import page from './page.js';
import experiments from './experiments.js';
import stream from './stream.js';
import ablation from './ablation.js';
import depthLatency from './depth-latency.js';
import normRace from './norm-race.js';
import anatomy from './anatomy.js';
import attention from './attention.js';
import tinyGpt from './tiny-gpt.js';
import train from './train.js';
import panels from './panels.js';
import examples from './examples.js';
import library from './library.js';
import checkpoint from './checkpoint.js';

export default {
  ...shared,
  ...masks,
  ...trainingCost,
  ...memory,
  ...costChart,
  ...moe,
  ...paramTable,
  ...page,
  ...experiments,
  ...stream,
  ...ablation,
  ...depthLatency,
  ...normRace,
  ...anatomy,
  ...attention,
  ...tinyGpt,
  ...train,
  ...panels,
  ...examples,
  ...library,
  ...checkpoint,
};
