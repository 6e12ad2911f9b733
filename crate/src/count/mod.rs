//! Parameters by component, tensor shapes at a batch and sequence length, and memory. Every count
//! is an exact `u64` with checked arithmetic, computed from one formula per tensor
//! ([`crate::formula::Poly`]), the same formula the tables print.
//!
//! - `parts`: the vocabulary: [`Group`]s of the breakdown bar, [`Part`]s of the anatomy diagram, one
//!   weight [`Tensor`], and a part's and a group's sums.
//! - `tensors`: every weight tensor of a model, each from its dimensions ([`tensors()`]).
//! - `params`: the tensors summed by part, by group and in all ([`count_params`]).
//! - `activations`: the shape of everything that flows through the model at [B, T] ([`activations()`]).
//! - `memory`: the bytes of the weights in each format, and of the key/value cache ([`memory()`]).

mod activations;
mod memory;
mod params;
mod parts;
mod tensors;

pub use activations::{activations, check_batch_and_seq_len, Activation};
pub use memory::{memory, memory_of, Bytes, Memory, DTYPES};
pub use params::{count_params, Kaplan, ParamCount};
pub use parts::{Group, GroupCount, Part, PartCount, Tensor};
pub use tensors::tensors;

/// The largest batch the shape and memory tables accept.
pub const MAX_BATCH: u64 = 65_536;
