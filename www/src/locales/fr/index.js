// Français : les mêmes clés que en/ (un test unitaire le vérifie), un fichier par widget. Typographie
// française : espace fine insécable (U+202F) avant « ; : ! ? » et à l'intérieur des guillemets.

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
