// What each part of the anatomy diagram does, in this project's own words (1–3 sentences each),
// and the names of the parts that hold no parameters (the Report lists only parts with weights).
// Pure: no DOM, no wasm, no numbers computed; any number quoted is a configuration value the
// library returned (heads, widths, experts), passed in as `config`. The texts are the catalog's
// (locales/*/anatomy.js), in the language of `t` (English when it is left out).

import { formatInteger } from '../format.js';
import { speakEnglish, translator } from '../i18n.js';
import anatomyTexts from '../locales/en/anatomy.js';

speakEnglish(anatomyTexts);

const EN = translator('en');

/** The catalog key of each part's name (count(...).parts[].part); a part not listed shows the library's label. */
const PART_KEYS = {
  token_table: 'anatomy.partTokenTable',
  position_table: 'anatomy.partPositionTable',
  attention_norm: 'anatomy.partAttentionNorm',
  attention: 'anatomy.partAttention',
  feed_forward_norm: 'anatomy.partFeedForwardNorm',
  feed_forward: 'anatomy.partFeedForward',
  router: 'anatomy.partRouter',
  final_norm: 'anatomy.partFinalNorm',
  output_head: 'anatomy.partOutputHead',
};

/** A part with weights (one of the Report's parts), named in the reader's language. */
export function partLabel(part, t = EN) {
  return PART_KEYS[part.part] ? t(PART_KEYS[part.part]) : part.label;
}

/** The catalog key of each group's name (count(...).groups[].group). */
const GROUP_KEYS = {
  embeddings: 'anatomy.groupEmbeddings',
  attention: 'anatomy.groupAttention',
  feed_forward: 'anatomy.groupFeedForward',
  router: 'anatomy.groupRouter',
  norms: 'anatomy.groupNorms',
  output_head: 'anatomy.groupOutputHead',
};

/** A group of the breakdown (one of the Report's groups), named in the reader's language. */
export function groupLabel(group, t = EN) {
  return GROUP_KEYS[group.group] ? t(GROUP_KEYS[group.group]) : group.label;
}

/** Names of the diagram's parameter-free parts, keyed as the diagram keys them. */
export function freePartLabel(key, config, t = EN) {
  switch (key) {
    case 'stream':
      return t('anatomy.labelStream');
    case 'scores':
      return t('anatomy.labelScores');
    case 'activation':
      return t(config?.feed_forward === 'swi_glu' ? 'anatomy.labelSwiGlu' : 'anatomy.labelGelu');
    case 'attention_add':
      return t('anatomy.labelAttentionAdd');
    case 'feed_forward_add':
      return t('anatomy.labelFeedForwardAdd');
    case 'logits':
      return t('anatomy.labelLogits');
    default:
      return key;
  }
}

/** The short word drawn inside the activation box. */
export function activationName(config) {
  return config?.feed_forward === 'swi_glu' ? 'SwiGLU' : 'GELU';
}

/** The note drawn where a learned position table would be. */
export function rotaryNote(t = EN) {
  return t('anatomy.rotaryNote');
}

/** The note under the opened block: "11 more blocks like this". */
export function moreBlocksNote(moreBlocks, t = EN) {
  return t('anatomy.moreBlocks', { count: moreBlocks, blocks: formatInteger(moreBlocks, t.locale) });
}

function normText(config, where, t) {
  return [t(where), t(config.norm === 'rms_norm' ? 'anatomy.descRmsNorm' : 'anatomy.descLayerNorm')];
}

/**
 * The paragraphs describing one part: an array of strings.
 * `key` is a part key from the Report (`attention`, `token_table`, …) or a parameter-free part.
 */
export function describePart(key, config, t = EN) {
  const n = (x) => formatInteger(x, t.locale);
  switch (key) {
    case 'token_table':
      return [t('anatomy.descTokenTable'), config.tied_output ? t('anatomy.descTokenTableTied') : null].filter(Boolean);
    case 'position_table':
      return [t('anatomy.descPositionTable')];
    case 'stream':
      return [t('anatomy.descStream')];
    case 'attention_norm':
      return normText(config, 'anatomy.descAttentionNorm', t);
    case 'feed_forward_norm':
      return normText(config, 'anatomy.descFeedForwardNorm', t);
    case 'final_norm':
      return normText(config, 'anatomy.descFinalNorm', t);
    case 'attention': {
      const text = [t('anatomy.descAttention', { heads: n(config.n_heads), headDim: n(config.head_dim), count: config.n_heads })];
      if (config.positions === 'rotary') text.push(t('anatomy.descRotary'));
      if (config.n_kv_heads < config.n_heads) {
        text.push(t('anatomy.descGrouped', { heads: n(config.n_heads), kvHeads: n(config.n_kv_heads), count: config.n_kv_heads }));
      }
      return text;
    }
    case 'scores':
      return [t('anatomy.descScores'), t('anatomy.descScoresGrow')];
    case 'attention_add':
      return [t('anatomy.descAttentionAdd')];
    case 'feed_forward_add':
      return [t('anatomy.descFeedForwardAdd')];
    case 'router': {
      const moe = config.moe;
      return [
        t('anatomy.descRouter', {
          experts: moe ? n(moe.n_experts) : 'E',
          k: moe ? n(moe.experts_per_token) : 'k',
          count: moe ? moe.experts_per_token : 2,
        }),
      ];
    }
    case 'feed_forward': {
      const widths = { d: n(config.d_model), f: n(config.d_ff) };
      const text = t(config.feed_forward === 'swi_glu' ? 'anatomy.descSwiGlu' : 'anatomy.descGelu', widths);
      if (config.moe) {
        const { n_experts: experts, experts_per_token: k } = config.moe;
        return [text, t('anatomy.descMoe', { experts: n(experts), k: n(k), count: k })];
      }
      return [text];
    }
    case 'activation':
      return [t(config.feed_forward === 'swi_glu' ? 'anatomy.descSwiGluActivation' : 'anatomy.descGeluActivation')];
    case 'output_head':
      return [t('anatomy.descOutputHead'), t(config.tied_output ? 'anatomy.descOutputHeadTied' : 'anatomy.descOutputHeadOwn')];
    case 'logits':
      return [t('anatomy.descLogits')];
    default:
      return [];
  }
}

/** What the details panel says for a part without parameters. */
export function noParameters(t = EN) {
  return t('anatomy.noParameters');
}
