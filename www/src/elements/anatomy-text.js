// What each part of the anatomy diagram does, in this project's own words (1–3 sentences each),
// and the names of the parts that hold no parameters (the Report lists only parts with weights).
// Pure: no DOM, no wasm, no numbers computed; any number quoted is a configuration value the
// library returned (heads, widths, experts), passed in as `config`.

import { formatInteger } from '../format.js';

/** Names of the diagram's parameter-free parts, keyed as the diagram keys them. */
export function freePartLabel(key, config) {
  switch (key) {
    case 'stream':
      return 'Residual stream';
    case 'scores':
      return 'Scores';
    case 'activation':
      return config?.feed_forward === 'swi_glu' ? 'SwiGLU activation' : 'GELU activation';
    case 'attention_add':
      return "Add attention's output";
    case 'feed_forward_add':
      return "Add the feed-forward's output";
    case 'logits':
      return 'Logits';
    default:
      return key;
  }
}

/** The short word drawn inside the activation box. */
export function activationName(config) {
  return config?.feed_forward === 'swi_glu' ? 'SwiGLU' : 'GELU';
}

/** The note drawn where a learned position table would be. */
export const ROTARY_NOTE = 'Rotary positions: no parameters';

/** The note under the opened block: "11 more blocks like this". */
export function moreBlocksNote(moreBlocks) {
  return `${moreBlocks} more ${moreBlocks === 1 ? 'block' : 'blocks'} like this`;
}

function normText(config, where) {
  const how =
    config.norm === 'rms_norm'
      ? 'RMSNorm divides each token’s vector by its root mean square and scales it by a learned gain γ; unlike LayerNorm it does not centre the vector and has no shift.'
      : 'LayerNorm moves each token’s vector to zero mean and unit spread, then applies a learned gain γ and shift β.';
  return [where, how];
}

/**
 * The paragraphs describing one part: an array of strings.
 * `key` is a part key from the Report (`attention`, `token_table`, …) or a parameter-free part.
 */
export function describePart(key, config) {
  switch (key) {
    case 'token_table':
      return [
        'Each token id picks one row of this learned table: a vector of d numbers that stands for that token. A sequence of T ids becomes a T × d matrix, the start of the residual stream.',
        config.tied_output
          ? 'The output head reuses this same table at the far end, so it is stored once.'
          : null,
      ].filter(Boolean);
    case 'position_table':
      return [
        'A second learned table with one row per position, up to the context length. Row t is added to the token vector at position t; without it the model could not tell word order apart.',
      ];
    case 'stream':
      return [
        'The T × d matrix that carries every token’s vector from the embeddings to the output head. No sublayer overwrites it: each reads a normalised copy and adds its result back, which also gives gradients a direct path through a deep stack.',
      ];
    case 'attention_norm':
      return normText(config, 'Hands attention a copy of the stream on a steady scale, however large the stream has grown.');
    case 'feed_forward_norm':
      return normText(config, 'Hands the feed-forward a copy of the stream on a steady scale.');
    case 'final_norm':
      return normText(config, 'Puts the stream on a steady scale one last time, after the last block and before the output head.');
    case 'attention': {
      const text = [
        `The only part where positions exchange information. Each of the ${config.n_heads} heads turns every token into a query, a key and a value of ${config.head_dim} numbers; a query is compared with the keys at its own and earlier positions, and those scores weight a sum of the values. W_O maps the joined heads back to d numbers, which are added to the stream.`,
      ];
      if (config.positions === 'rotary') {
        text.push(
          'Position enters here: queries and keys are rotated by an angle that depends on their position (rotary embeddings), which needs no learned table.',
        );
      }
      if (config.n_kv_heads < config.n_heads) {
        text.push(
          `Why W_K and W_V are narrower than W_Q: this model groups its key/value heads. Its ${config.n_heads} query heads share ${config.n_kv_heads} key/value heads, several query heads reading the same keys and values, so W_K and W_V only produce ${config.n_kv_heads} heads’ worth of numbers and the KV cache kept while generating shrinks in the same proportion.`,
        );
      }
      return text;
    }
    case 'scores':
      return [
        'For each head, a T × T table of how well each query matches each key, scaled by one over the square root of the head size. Later positions are masked out and a softmax turns each row into weights that add up to one.',
        'It holds no parameters, but it grows with the square of T: the one shape here that does.',
      ];
    case 'attention_add':
      return [
        'Adds attention’s output to the stream: h = x + Attn(Norm(x)). It holds no parameters, and the stream keeps its T × d shape.',
      ];
    case 'feed_forward_add':
      return [
        'Adds the feed-forward’s output to the stream: x′ = h + FFN(Norm(h)), the stream that leaves the block. It holds no parameters.',
      ];
    case 'router':
      return [
        `A small linear layer that gives each token one score per expert (${config.moe?.n_experts ?? 'E'} of them). Only the ${config.moe?.experts_per_token ?? 'k'} best-scoring experts run for that token, and their outputs are mixed with weights from a softmax of the kept scores.`,
      ];
    case 'feed_forward': {
      const text =
        config.feed_forward === 'swi_glu'
          ? `A gated network applied to each position on its own: W_gate and W_up both widen the vector from ${formatInteger(config.d_model)} to ${formatInteger(config.d_ff)} numbers, the SiLU of the gate multiplies the up projection number by number, and W_down brings the result back. It moves nothing between positions and holds most of each block’s weights.`
          : `A two-layer network applied to each position on its own: W_1 widens the vector from ${formatInteger(config.d_model)} to ${formatInteger(config.d_ff)} numbers, GELU bends each of them, and W_2 brings the result back. It moves nothing between positions and holds most of each block’s weights.`;
      if (config.moe) {
        return [
          text,
          `Here it is a mixture of experts: ${config.moe.n_experts} such networks per block, of which the router picks ${config.moe.experts_per_token} for each token. The model stores every expert but runs only the picked ones.`,
        ];
      }
      return [text];
    }
    case 'activation':
      return config.feed_forward === 'swi_glu'
        ? [
            'SwiGLU: the gate’s output passes through SiLU (x times its sigmoid) and multiplies the up projection number by number, a learned dimmer on every hidden unit. It holds no parameters of its own; the gate’s matrix is counted in the feed-forward.',
          ]
        : [
            'GELU, a smooth bend applied to each hidden number on its own. Without it the two matrices would collapse into a single linear map. It holds no parameters.',
          ];
    case 'output_head':
      return [
        'Turns each position’s final vector into one score per vocabulary token.',
        config.tied_output
          ? 'Here it is tied: it reuses the token table, transposed, so it adds no parameters of its own.'
          : 'Here it has its own V × d matrix, as large as the token table.',
      ];
    case 'logits':
      return [
        'V scores for every position, one per vocabulary token. A softmax of the last position’s row gives the probabilities of the next token. They are computed, not stored: no parameters.',
      ];
    default:
      return [];
  }
}

/** What the details panel says for a part without parameters. */
export const NO_PARAMETERS = 'This part holds no parameters: it is computed from its inputs.';
