//! The vocabulary of a count: the groups of the breakdown bar, the parts of the anatomy diagram
//! that hold weights, one weight tensor with its shape and formula, and a part's and a group's sums.

use serde::Serialize;

use crate::formula::Poly;

/// The groups of the breakdown bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    Embeddings,
    Attention,
    FeedForward,
    Router,
    Norms,
    OutputHead,
}

impl Group {
    pub const ALL: [Group; 6] =
        [Group::Embeddings, Group::Attention, Group::FeedForward, Group::Router, Group::Norms, Group::OutputHead];

    pub fn label(self) -> &'static str {
        match self {
            Group::Embeddings => "Embeddings",
            Group::Attention => "Attention",
            Group::FeedForward => "Feed-forward",
            Group::Router => "Router",
            Group::Norms => "Norms",
            Group::OutputHead => "Output head",
        }
    }
}

/// The parts of the anatomy diagram that hold weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    TokenTable,
    PositionTable,
    AttentionNorm,
    Attention,
    FeedForwardNorm,
    FeedForward,
    Router,
    FinalNorm,
    OutputHead,
}

impl Part {
    pub const ALL: [Part; 9] = [
        Part::TokenTable,
        Part::PositionTable,
        Part::AttentionNorm,
        Part::Attention,
        Part::FeedForwardNorm,
        Part::Router,
        Part::FeedForward,
        Part::FinalNorm,
        Part::OutputHead,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Part::TokenTable => "Token table",
            Part::PositionTable => "Position table",
            Part::AttentionNorm => "Norm before attention",
            Part::Attention => "Attention",
            Part::FeedForwardNorm => "Norm before the feed-forward",
            Part::FeedForward => "Feed-forward",
            Part::Router => "Router",
            Part::FinalNorm => "Final norm",
            Part::OutputHead => "Output head",
        }
    }

    pub fn group(self) -> Group {
        match self {
            Part::TokenTable | Part::PositionTable => Group::Embeddings,
            Part::AttentionNorm | Part::FeedForwardNorm | Part::FinalNorm => Group::Norms,
            Part::Attention => Group::Attention,
            Part::FeedForward => Group::FeedForward,
            Part::Router => Group::Router,
            Part::OutputHead => Group::OutputHead,
        }
    }

    /// Whether every block has its own copy.
    pub fn per_block(self) -> bool {
        matches!(self, Part::AttentionNorm | Part::Attention | Part::FeedForwardNorm | Part::FeedForward | Part::Router)
    }
}

/// One weight tensor of the model (for a mixture of experts, one expert's copy of it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tensor {
    /// As the lessons write it: "W_Q", "b_1", "gain γ".
    pub name: String,
    pub part: Part,
    pub group: Group,
    /// Rows x columns (input x output for a projection), or the length of a vector.
    pub shape: Vec<u64>,
    /// The same dimensions in symbols: ["d", "d_kv"].
    pub shape_symbols: Vec<String>,
    /// Parameters of one copy, in symbols: "d·d_kv".
    pub formula: String,
    /// Parameters of one copy.
    pub params_each: u64,
    /// Copies in one block (E for an expert's tensor) or in the model (1).
    pub copies: u64,
    /// Copies one token uses (k of E experts).
    pub active_copies: u64,
    /// Parameters across the whole model (all copies, all blocks).
    pub params: u64,
    /// Parameters one token uses.
    pub active: u64,
    /// Whether this tensor is the token table reused (tied output head: no parameters of its own).
    pub tied: bool,
    /// `formula` before printing, for summing into a part's formula.
    #[serde(skip)]
    pub poly: Poly,
}

/// A part of the diagram with its tensors summed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartCount {
    pub part: Part,
    pub label: &'static str,
    pub group: Group,
    pub per_block: bool,
    /// In one block for a per-block part, else in the model: "4d² + 4d".
    pub formula: String,
    /// In one block for a per-block part, else in the model.
    pub params_each: u64,
    /// Across all blocks.
    pub params: u64,
    /// Across all blocks, as one token uses them.
    pub active: u64,
    /// In one block (or in the model), as one token uses them: k of E experts.
    pub active_each: u64,
    /// Fraction of the model's parameters.
    pub share: f64,
}

/// A group of the breakdown bar.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupCount {
    pub group: Group,
    pub label: &'static str,
    pub params: u64,
    pub active: u64,
    pub share: f64,
}
