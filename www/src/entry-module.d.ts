// Types of the transformer-block npm package (dist/npm/index.d.ts is a copy of this file).
// Hand-written: `make dist` fails when an element is defined under www/src/elements/ but missing
// here, so add each new element's class and its HTMLElementTagNameMap entry.
//
// Every element is configured by attributes (strings, as in HTML) and re-renders when one changes;
// a bad value shows a short message inside the widget, which keeps working with a default.

/** The base of every element: an open shadow root with the shared theme. */
export declare class TbElement extends HTMLElement {
  static observedAttributes: string[];
  /** A prefix unique to this element, for ids inside its shadow root. */
  readonly uid: string;
  readonly shadowRoot: ShadowRoot;
  connectedCallback(): void;
  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void;
  /** Re-render once, after the current batch of attribute changes. */
  update(): void;
  /** True while the element works towards what it will show (the experiments measuring in the page's worker). */
  readonly busy: boolean;
  /** Resolves with the time (performance.now()) the element first showed its content or message; it then fires `tb-ready`. */
  readonly rendered: Promise<number>;
}

/** Resolves, with the time the last of them rendered, once every <tb-…> element now in `root` shows its content. */
export declare function allRendered(root?: Document | Element): Promise<number>;

/** `<tb-anatomy model="gpt2-small" seq-len="8">`: the "select any part" diagram of a model. */
export declare class TbAnatomy extends TbElement {}

/** `<tb-param-table model="gpt2-small">`: parameters by component, with formulas and Kaplan's 12·L·d². */
export declare class TbParamTable extends TbElement {}

/** `<tb-cost-chart model="gpt2-small" seq-len="8">`: forward FLOPs per token against T, attention's share. */
export declare class TbCostChart extends TbElement {}

/**
 * `<tb-example name="layernorm">`: a worked example, run live with editable inputs. Names: residual,
 * layernorm, gelu, feed-forward, tiny-gpt, tied-output, masks, param-count, moe, balance-loss, flops.
 */
export declare class TbExample extends TbElement {}

/** `<tb-moe experts="…" k="2" tokens="…" seed="…">`: mixture-of-experts routing and load balance. */
export declare class TbMoe extends TbElement {}

/** `<tb-masks tokens="…" seed="…">`: encoder and decoder attention patterns side by side. */
export declare class TbMasks extends TbElement {}

/**
 * `<tb-tiny-gpt text="the residual" seed="…" temperature="0.8" top-k="…" top-p="1">`: TinyGPT
 * reading characters (the trained model the page ships; with `seed`, an untrained one; or the model
 * a reader trained with `<tb-train>`): the stream, the logits, the likeliest next characters with
 * their probabilities, and the sampler (temperature, top-k, top-p) with "Write on".
 */
export declare class TbTinyGpt extends TbElement {}

/**
 * `<tb-attention text="the residual" model="shipped" seed="0" weights-src="…">`: where each head of
 * TinyGPT looks for the text typed: a map per head of every block (with a table alternative), the
 * text shaded by one query's weights, and a chosen head's scores before the softmax. model:
 * shipped, six-blocks or untrained (of `seed`).
 */
export declare class TbAttention extends TbElement {}

/**
 * `<tb-train seed steps learning-rate warmup layers norm>`: train TinyGPT in the page (in a worker
 * where the page allows one), with a live loss curve against the uniform, unigram and bigram losses.
 */
export declare class TbTrain extends TbElement {}

/**
 * `<tb-ablation model="six-blocks" mode="removed" results-src="…">`: the loss of a trained TinyGPT
 * with each block removed or overwriting the stream, against the intact loss and a uniform guess;
 * beside it GPT-2 small's reported figures, or the figures `tblock ablate` measured on a real
 * checkpoint (results-src: its JSON, on the page's site).
 */
export declare class TbAblation extends TbElement {}

/**
 * `<tb-stream model="six-blocks" results-src="…">`: per block, the stream's norm and what attention
 * and the feed-forward add to it, and the cosine between the stream entering and leaving; beside it
 * GPT-2 small's reported figures, or what `tblock stream` measured on a real checkpoint.
 */
export declare class TbStream extends TbElement {}

/**
 * `<tb-norm-race seed="0" steps="300" warmup="0">`: a pre-LN and a post-LN six-block TinyGPT trained
 * side by side from the same seed; both curves, and what the race found, stated from its numbers.
 */
export declare class TbNormRace extends TbElement {}

/**
 * `<tb-depth-latency>`: the same block parameters spent on more thin blocks or fewer wide ones, one
 * token timed through each stack in the reader's browser; and one block's attention stage as a share
 * of its time at growing T, beside its share of the FLOPs.
 */
export declare class TbDepthLatency extends TbElement {}

/**
 * `<tb-training-cost params tokens-per-iteration iterations peak-tflops utilisation>`: training
 * compute as 6·N·D and its time on given hardware (defaults: nanoGPT's GPT-2 run).
 */
export declare class TbTrainingCost extends TbElement {}

/** `<tb-memory model="gpt2-small" batch="1" seq-len="8">`: weight memory per dtype and the KV cache. */
export declare class TbMemory extends TbElement {}

/**
 * `<tb-number value="total_params" model="gpt2-small" format="integer">`: one number from the
 * library, inline in a sentence. Attributes: model, seq-len, batch, source, args, value, format, digits.
 */
export declare class TbNumber extends TbElement {}

/**
 * The WebAssembly facade, instantiated once per page and shared by every element: the functions of
 * crate/src/web/ (presets, count, cost_curve, example_…), returning plain objects. A function
 * throws an Error whose message says what was wrong and what is allowed.
 */
export interface TransformerBlockLibrary {
  presets(): Array<{ name: string; label: string; [field: string]: unknown }>;
  count(model: string, seq_len: number, batch: number): { total_params: number; [field: string]: unknown };
  [fn: string]: unknown;
}

/**
 * The keys of the English catalog (www/src/locales/en.js), the texts a widget shows; a unit test
 * keeps this list equal to the catalog's.
 */
export type CatalogKey =
  | 'base.libraryFailed'
  | 'base.libraryFailedPrerendered'
  | 'base.legend'
  | 'attr.notWhole'
  | 'attr.tooLarge'
  | 'attr.usingDefault'
  | 'attr.using'
  | 'attr.notNumber'
  | 'parse.empty'
  | 'parse.notNumber'
  | 'positions.none'
  | 'positions.separator'
  | 'positions.query'
  | 'masks.title'
  | 'masks.tokens'
  | 'masks.slider'
  | 'masks.position'
  | 'masks.option'
  | 'masks.typeWhole'
  | 'masks.encoderBlock'
  | 'masks.decoderBlock'
  | 'masks.flagOff'
  | 'masks.flagOn'
  | 'masks.encoder'
  | 'masks.decoder'
  | 'masks.pairs'
  | 'masks.changed'
  | 'masks.unchanged'
  | 'masks.figure'
  | 'masks.sentence'
  | 'masks.legendAllowed'
  | 'masks.legendChanged'
  | 'cost.title'
  | 'cost.preset'
  | 'cost.realRuns'
  | 'cost.params'
  | 'cost.paramsHint'
  | 'cost.tokensPerIteration'
  | 'cost.tokensPerIterationHint'
  | 'cost.iterations'
  | 'cost.iterationsHint'
  | 'cost.peak'
  | 'cost.peakHint'
  | 'cost.utilisation'
  | 'cost.utilisationHint'
  | 'cost.using'
  | 'cost.usingNanogpt'
  | 'cost.tokens'
  | 'cost.flops'
  | 'cost.time'
  | 'memory.title'
  | 'memory.batch'
  | 'memory.seqLen'
  | 'memory.fullContext'
  | 'memory.kvNote'
  | 'memory.kvShared'
  | 'memory.kvOwn'
  | 'memory.weightsFixed'
  | 'memory.batchName'
  | 'memory.notNumber'
  | 'memory.caption'
  | 'memory.format'
  | 'memory.weights'
  | 'memory.kvPerToken'
  | 'memory.kvFor'
  | 'memory.dtype'
  | 'memory.exactBytes'
  | 'costChart.title'
  | 'costChart.seqLen'
  | 'costChart.seqLenField'
  | 'costChart.within'
  | 'costChart.past'
  | 'costChart.chartLabel'
  | 'costChart.legendTotal'
  | 'costChart.legendParameter'
  | 'costChart.legendAttention'
  | 'costChart.flopsTitle'
  | 'costChart.shareTitle'
  | 'costChart.crossoverWithin'
  | 'costChart.crossoverPast'
  | 'costChart.axisT'
  | 'costChart.readout'
  | 'costChart.flops'
  | 'moe.title'
  | 'moe.oneToken'
  | 'moe.drag'
  | 'moe.scoreLabel'
  | 'moe.k'
  | 'moe.batchTitle'
  | 'moe.seed'
  | 'moe.seedHint'
  | 'moe.seedWhole'
  | 'moe.routing'
  | 'moe.kept'
  | 'moe.skipped'
  | 'moe.noneSkipped'
  | 'moe.listComma'
  | 'moe.listCommaDecimals'
  | 'moe.listAnd'
  | 'moe.expert'
  | 'moe.keptGate'
  | 'moe.skippedCell'
  | 'moe.tableCaption'
  | 'moe.colExpert'
  | 'moe.colScore'
  | 'moe.colGate'
  | 'moe.chartLabel'
  | 'moe.chartCount'
  | 'moe.figcaption'
  | 'moe.loss'
  | 'paramTable.caption'
  | 'paramTable.colPart'
  | 'paramTable.colFormula'
  | 'paramTable.colPerBlock'
  | 'paramTable.colInModel'
  | 'paramTable.colShare'
  | 'paramTable.partTokenTable'
  | 'paramTable.partPositionTable'
  | 'paramTable.partAttentionNorm'
  | 'paramTable.partAttention'
  | 'paramTable.partFeedForwardNorm'
  | 'paramTable.partFeedForward'
  | 'paramTable.partRouter'
  | 'paramTable.partFinalNorm'
  | 'paramTable.partOutputHead'
  | 'paramTable.tied'
  | 'paramTable.tiedFormula'
  | 'paramTable.tiedTensorFormula'
  | 'paramTable.oneBlock'
  | 'paramTable.oneBlockFormula'
  | 'paramTable.allBlocks'
  | 'paramTable.allBlocksFormula'
  | 'paramTable.withoutEmbeddings'
  | 'paramTable.withoutEmbeddingsFormula'
  | 'paramTable.total'
  | 'paramTable.usedPerToken'
  | 'paramTable.kaplan'
  | 'paramTable.below'
  | 'paramTable.above'
  | 'paramTable.leftOut'
  | 'paramTable.summary'
  | 'paramTable.symbolsIntro'
  | 'paramTable.symbolV'
  | 'paramTable.symbolD'
  | 'paramTable.symbolL'
  | 'paramTable.symbolP'
  | 'paramTable.symbolPNone'
  | 'paramTable.symbolF'
  | 'paramTable.symbolDkv'
  | 'paramTable.symbolE'
  | 'paramTable.symbolENone'
  | 'paramTable.tiedNote'
  | 'paramTable.tensorsSummary'
  | 'paramTable.tensorsCaption'
  | 'paramTable.colTensor'
  | 'paramTable.colShape'
  | 'paramTable.colEach'
  | 'paramTable.tensorTokenTable'
  | 'paramTable.tensorPositionTable'
  | 'paramTable.tensorAttentionNormGain'
  | 'paramTable.tensorAttentionNormBias'
  | 'paramTable.tensorFeedForwardNormGain'
  | 'paramTable.tensorFeedForwardNormBias'
  | 'paramTable.tensorFinalNormGain'
  | 'paramTable.tensorFinalNormBias'
  | 'paramTable.eachExpert'
  | 'page.models'
  | 'page.libraryFailedPrerendered'
  | 'page.libraryFailed'
  | 'experiments.model'
  | 'experiments.badModel'
  | 'experiments.modelSixBlocks'
  | 'experiments.modelShipped'
  | 'experiments.modelTrained'
  | 'experiments.modelPage'
  | 'experiments.whereWorker'
  | 'experiments.whereMainThread'
  | 'experiments.reportedCaption'
  | 'experiments.reportedItem'
  | 'experiments.loadingResults'
  | 'experiments.resultsProblem'
  | 'experiments.showingQuoted'
  | 'experiments.measuredCaption'
  | 'experiments.measuredRegion'
  | 'stream.title'
  | 'stream.cardsLabel'
  | 'stream.legendAttention'
  | 'stream.legendFeedForward'
  | 'stream.legendNote'
  | 'stream.what'
  | 'stream.colMedian'
  | 'stream.colNorm'
  | 'stream.colAttention'
  | 'stream.colFeedForward'
  | 'stream.colCosine'
  | 'stream.rowEmbedding'
  | 'stream.rowBlock'
  | 'stream.cardTitle'
  | 'stream.cardIn'
  | 'stream.cardAttention'
  | 'stream.cardFeedForward'
  | 'stream.cardCosine'
  | 'stream.note'
  | 'stream.chartLabel'
  | 'stream.chartBlock'
  | 'stream.chartSeparator'
  | 'stream.axisBlock'
  | 'stream.axisTitle'
  | 'ablation.title'
  | 'ablation.legend'
  | 'ablation.badMode'
  | 'ablation.modeRemoved'
  | 'ablation.modeOverwritten'
  | 'ablation.blocksLabel'
  | 'ablation.what'
  | 'ablation.colLoss'
  | 'ablation.colRemoved'
  | 'ablation.colOverwriting'
  | 'ablation.rowIntact'
  | 'ablation.rowBlock'
  | 'ablation.rowUniform'
  | 'ablation.reading'
  | 'ablation.measuring'
  | 'ablation.progress'
  | 'ablation.done'
  | 'ablation.describe'
  | 'ablation.madeShipped'
  | 'ablation.madeTrained'
  | 'ablation.blockButton'
  | 'ablation.detail'
  | 'ablation.chartRemoved'
  | 'ablation.chartOverwritten'
  | 'ablation.chartBar'
  | 'ablation.notMeasured'
  | 'ablation.chartSeparator'
  | 'ablation.chartIntact'
  | 'ablation.chartUniform'
  | 'ablation.axisBlock'
  | 'ablation.axisTitle'
  | 'ablation.lineIntact'
  | 'ablation.lineUniform'
  | 'latency.title'
  | 'latency.intro'
  | 'latency.again'
  | 'latency.waiting'
  | 'latency.sharesLabel'
  | 'latency.sharesTitle'
  | 'latency.timing'
  | 'latency.timed'
  | 'latency.chartLabel'
  | 'latency.chartStack'
  | 'latency.chartSeparator'
  | 'latency.ms'
  | 'latency.notTimed'
  | 'latency.axisMs'
  | 'latency.axisStack'
  | 'latency.shareTitle'
  | 'latency.shareStage'
  | 'latency.shareTime'
  | 'latency.shareFlops'
  | 'race.title'
  | 'race.settings'
  | 'race.seed'
  | 'race.steps'
  | 'race.warmup'
  | 'race.notNumber'
  | 'race.race'
  | 'race.stop'
  | 'race.notStarted'
  | 'race.legendPre'
  | 'race.legendPost'
  | 'race.legendReference'
  | 'race.drawFailed'
  | 'race.typeNumber'
  | 'race.whereWorker'
  | 'race.whereMainThread'
  | 'race.progress'
  | 'race.chartEmpty'
  | 'race.chartLabel'
  | 'race.chartSide'
  | 'race.chartHeldOut'
  | 'race.chartReference';

/** A text: a string with {value} placeholders, or a plural chosen by Intl.PluralRules on the value `count`. */
export type CatalogText = string | { other: string; zero?: string; one?: string; two?: string; few?: string; many?: string };

/**
 * Add a language the widgets speak (a BCP 47 tag such as "de" or "pt-BR"), or override texts of one
 * they speak already ("fr", "zh-CN", "en"). A key the catalog lacks falls back to English. Widgets
 * speak the `lang` of their nearest ancestor; those on the page render again. Throws a TypeError
 * naming a bad tag or a key that is not in the English catalog.
 */
export declare function addLanguage(tag: string, catalog: Partial<Record<CatalogKey, CatalogText>>): void;

/** The languages the widgets speak: English, French, Simplified Chinese, and any added. */
export declare function languages(): string[];

/** Resolves when the wasm is instantiated (rejects, with a message, when it cannot be). */
export declare const wasm: Promise<TransformerBlockLibrary>;

/** The compiled WebAssembly.Module, for a worker of the page's own (the training worker uses it). */
export declare const wasmModule: Promise<WebAssembly.Module>;

declare global {
  interface HTMLElementTagNameMap {
    'tb-anatomy': TbAnatomy;
    'tb-cost-chart': TbCostChart;
    'tb-example': TbExample;
    'tb-masks': TbMasks;
    'tb-memory': TbMemory;
    'tb-moe': TbMoe;
    'tb-number': TbNumber;
    'tb-param-table': TbParamTable;
    'tb-tiny-gpt': TbTinyGpt;
    'tb-attention': TbAttention;
    'tb-train': TbTrain;
    'tb-ablation': TbAblation;
    'tb-stream': TbStream;
    'tb-norm-race': TbNormRace;
    'tb-depth-latency': TbDepthLatency;
    'tb-training-cost': TbTrainingCost;
  }
}
