//! Measurements the lesson reports for GPT-2 small (1,024 tokens of the author's own prose), shown
//! beside what the reader measures on TinyGPT. They are quoted, not computed: this project does not
//! run GPT-2's trained weights. Kept here, in one place, so the page never types them and every
//! widget that quotes them says the same.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Reported {
    /// What was measured, in a few words.
    pub what: &'static str,
    /// The figure as the lesson gives it.
    pub value: &'static str,
}

/// GPT-2 small, taking blocks out (loss on the author's text; a uniform guess over its 50,257
/// tokens scores ln 50,257 = 10.82).
pub const GPT2_SMALL_ABLATION: [Reported; 6] = [
    Reported { what: "intact", value: "3.60" },
    Reported { what: "remove any one of blocks 1 to 10", value: "3.61 to 3.89" },
    Reported { what: "remove block 0", value: "9.15" },
    Reported { what: "remove the last block", value: "41% worse than intact" },
    Reported { what: "overwrite any one of blocks 2 to 7", value: "above 10.8, worse than a uniform guess" },
    Reported { what: "overwrite block 0", value: "3.59" },
];

/// GPT-2 small, the stream (medians over positions).
pub const GPT2_SMALL_STREAM: [Reported; 4] = [
    Reported { what: "the embedding's norm", value: "4.6" },
    Reported { what: "what block 0's attention writes", value: "about 7 times the embedding's norm" },
    Reported { what: "what each stage of blocks 1 to 10 adds", value: "16% to 40% of the stream it reads" },
    Reported { what: "cosine of the stream into and out of blocks 1 to 10", value: "0.93 to 0.97" },
];

/// The lesson's own race of two six-block character models on its author's text, pre-LN against
/// post-LN, the same settings, no warmup (two seeds; losses read off training batches).
pub const REPORTED_RACE: [Reported; 4] = [
    Reported { what: "pre-LN after 300 steps", value: "about 2.4, below the 2.56 of knowing the previous letter" },
    Reported { what: "post-LN after 300 steps", value: "stalled at 3.2, roughly what letter frequencies give" },
    Reported { what: "post-LN, one seed run to 600 steps", value: "still stalled" },
    Reported { what: "post-LN with a 100-step warmup", value: "broke loose between steps 200 and 250" },
];

/// The lesson's timings on its author's CPU (GPT-2-sized: 85 million block parameters each way).
pub const REPORTED_DEPTH: [Reported; 4] = [
    Reported { what: "6 blocks of width 1,088", value: "3.2 ms" },
    Reported { what: "12 blocks of width 768", value: "4.0 ms" },
    Reported { what: "24 blocks of width 544", value: "4.7 ms" },
    Reported { what: "48 blocks of width 384", value: "6.7 ms" },
];

/// The lesson's measurement of one GPT-2 small block's attention stage (projections included) as a
/// share of the block's time on a laptop CPU.
pub const REPORTED_ATTENTION_TIME: [Reported; 3] = [
    Reported { what: "at 256 tokens", value: "38% of the block's time" },
    Reported { what: "at 1,024 tokens", value: "47%" },
    Reported { what: "at 4,096 tokens", value: "57%, while holding a third of its parameters" },
];
