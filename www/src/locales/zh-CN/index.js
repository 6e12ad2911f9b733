// 简体中文：与 en/ 相同的键（由单元测试检查），每个部件一个文件。

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
