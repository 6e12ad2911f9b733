//! What `tblock` takes on its command line: the subcommands, their options, and the parsers that
//! turn a typed value into a number with a message naming what is allowed.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use transformer_block::train::TrainSettings;

#[derive(Parser)]
#[command(name = "tblock", version, about = "Exact parameter, shape, FLOP and memory counts for real transformers")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// List the presets.
    Presets {
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
    /// Count a preset or a Hugging Face config.json: parameters by component, shapes, FLOPs, memory.
    Count {
        /// A preset (see `tblock presets`) or the path of a config.json.
        model: String,
        /// Sequence length T for the shapes, FLOPs and KV cache (1 to the model's context).
        #[arg(long, default_value_t = 8, allow_hyphen_values = true, value_parser = whole_number)]
        seq_len: u64,
        /// Batch size B for the shapes and KV cache.
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = whole_number)]
        batch: u64,
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
    /// Write a freshly initialised GPT-2-shaped model (GPT-2's init, from a seed) as safetensors.
    Init {
        /// Where to write the .safetensors file.
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A GPT-2-shaped preset (tiny-gpt, gpt2-small, ...).
        #[arg(long, default_value = "tiny-gpt")]
        model: String,
    },
    /// Run a model on token ids and print the logits as JSON: {"logits": [[...], ...]}, a row per position.
    Forward {
        /// Token ids, comma-separated: 3,1,4,1,5.
        #[arg(long, value_delimiter = ',', required = true, allow_hyphen_values = true, value_parser = token_id)]
        ids: Vec<usize>,
        /// A GPT-2-shaped safetensors file (Hugging Face names).
        #[arg(long, conflicts_with = "seed")]
        weights: Option<PathBuf>,
        /// The config.json giving the head count and epsilon (default: config.json beside the weights,
        /// else the file's own metadata).
        #[arg(long, requires = "weights")]
        config: Option<PathBuf>,
        /// Instead of a file, TinyGPT initialised from this seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Turn the causal mask off (an encoder).
        #[arg(long)]
        encoder: bool,
        /// Also print the stream after the last block ("hidden").
        #[arg(long)]
        hidden: bool,
    },
    /// Train TinyGPT on a text (default: the lesson page's prose) and write it to a directory:
    /// model.safetensors (Hugging Face GPT-2 names), config.json, vocab.json. Progress on stderr,
    /// a JSON summary on stdout.
    Train {
        /// Where to write the model (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// A UTF-8 text to learn from; its last 10% is held out. Default: the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
        #[arg(long, default_value_t = 600, allow_hyphen_values = true, value_parser = whole_number)]
        steps: u64,
        /// Seeds the initial weights and the order of the batches (a whole number).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// The peak learning rate.
        #[arg(long, default_value_t = TrainSettings::default().learning_rate, allow_hyphen_values = true)]
        lr: f64,
        /// Steps of linear warmup (0: none).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = whole_number)]
        warmup: u64,
        /// After warmup: cosine down to a tenth, or constant.
        #[arg(long, value_enum, default_value_t = ScheduleArg::Cosine)]
        schedule: ScheduleArg,
        /// Blocks, 1 to 8.
        #[arg(long, default_value_t = 2, allow_hyphen_values = true, value_parser = whole_number)]
        layers: u64,
        /// Width d, 16 to 128, a multiple of the heads.
        #[arg(long, default_value_t = 32, allow_hyphen_values = true, value_parser = whole_number)]
        width: u64,
        #[arg(long, default_value_t = 4, allow_hyphen_values = true, value_parser = whole_number)]
        heads: u64,
        /// Where the norm sits: pre (GPT-2) or post (the original transformer).
        #[arg(long, value_enum, default_value_t = NormArg::Pre)]
        norm: NormArg,
        /// Windows of 16 per step.
        #[arg(long, default_value_t = 16, allow_hyphen_values = true, value_parser = whole_number)]
        batch: u64,
        /// How model.safetensors stores its numbers.
        #[arg(long, value_enum, default_value_t = DtypeArg::F32)]
        dtype: DtypeArg,
    },
    /// The loss of a trained model on a text, by the evaluation protocol: {"loss": …, "tokens": …}.
    Eval {
        #[command(flatten)]
        run: ExperimentArgs,
    },
    /// Take each block out, and make each overwrite the stream, and score the text each time:
    /// {"intact": …, "uniform": …, "blocks": [{"block": 0, "removed": …, "overwritten": …}, …]}.
    Ablate {
        #[command(flatten)]
        run: ExperimentArgs,
    },
    /// The stream around each block (medians over the text's positions): its norm, what attention
    /// and the feed-forward add, and the cosine between the stream entering and leaving.
    Stream {
        #[command(flatten)]
        run: ExperimentArgs,
    },
    /// Race pre-LN against post-LN: two six-block models of width 32, the same seed (so the same
    /// initial weights and batches) and settings (constant 3e-3), for each seed; both curves and what
    /// each race found, as JSON.
    Race {
        #[arg(long, default_value_t = 300, allow_hyphen_values = true, value_parser = whole_number)]
        steps: u64,
        /// Seeds, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "0,1,2", allow_hyphen_values = true, value_parser = seed)]
        seeds: Vec<u64>,
        /// Steps of linear warmup for both models.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = whole_number)]
        warmup: u64,
        /// The held-out loss every this many steps.
        #[arg(long, default_value_t = 25, allow_hyphen_values = true, value_parser = whole_number)]
        eval_every: u64,
        /// A UTF-8 text to learn from (its last 10% held out). Default: the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
    },
    /// Where the time goes, timed on this machine: one token through the same block-parameter budget
    /// spent four ways (6 x 136 to 48 x 48), and one block's attention stage as a share of its time
    /// at growing T beside its share of the FLOPs. Medians of `--reps` runs; JSON.
    Latency {
        #[arg(long, default_value_t = 200, allow_hyphen_values = true, value_parser = whole_number)]
        reps: u64,
    },
    /// Write text with a trained model: the prompt, then what the model adds. The sampler: divide the
    /// logits by the temperature, keep the top-k likeliest characters, of those the fewest whose
    /// probability adds up to top-p, and draw (the page's "Write on" draws the same way).
    Sample {
        #[command(flatten)]
        model: ModelArg,
        #[arg(long, default_value = "")]
        prompt: String,
        /// Characters to add.
        #[arg(long, default_value_t = 200, allow_hyphen_values = true, value_parser = whole_number)]
        length: u64,
        /// 0 always takes the likeliest character; 1 samples the model as it is.
        #[arg(long, default_value_t = 0.8, allow_hyphen_values = true)]
        temperature: f64,
        /// Keep the K likeliest characters (1 to the vocabulary size; 1 is greedy at any temperature).
        #[arg(long, allow_hyphen_values = true, value_parser = whole_number)]
        top_k: Option<u64>,
        /// Keep the fewest likeliest characters whose probability adds up to P (0 < P <= 1; 1 keeps all).
        #[arg(long, allow_hyphen_values = true)]
        top_p: Option<f64>,
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
    },
    /// Every intermediate of one forward pass over a text of 1 to 16 characters, as JSON: text, ids,
    /// attentions [L][H][T][T] and hidden_states [L+1][T][d] (as transformers' output_attentions and
    /// output_hidden_states), then every tensor under its name (blocks[i].ln_1, q, k, v, scores,
    /// weights, heads, attention_output, ..., ln_f, logits, probabilities). A longer text is refused.
    /// On a Hugging Face checkpoint folder: 1 to 64 of its tokens; text, ids, tokens, attentions,
    /// hidden_states, the ten likeliest next tokens and the model.
    Inspect {
        #[command(flatten)]
        model: ModelArg,
        /// The text to read (TinyGPT: 1 to the model's 16 positions, characters outside the vocabulary
        /// read as the catch-all symbol, said on stderr; a checkpoint: 1 to 64 of its tokens).
        #[arg(long, allow_hyphen_values = true)]
        text: String,
    },
    /// Where each head looks over a text (the evaluation protocol's windows; default: the held-out
    /// tail of the lesson prose): its mean share of weight on the previous character, on itself and
    /// on the first position, its entropy, and the heads that stand out.
    Heads {
        #[command(flatten)]
        model: ModelArg,
        /// The text. Default: the held-out last 10% of the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
    },
}

/// What eval, ablate and stream run on, and over what.
#[derive(Args)]
pub struct ExperimentArgs {
    /// A model directory that tblock train wrote (model.safetensors, config.json, vocab.json), a
    /// .safetensors file, or a Hugging Face checkpoint directory (config.json, tokenizer.json,
    /// model.safetensors or shards with model.safetensors.index.json) of GPT-2, Llama, Mistral or Qwen2.
    #[arg(long)]
    pub weights: PathBuf,
    /// The UTF-8 text to score. Default: for TinyGPT the held-out last 10% of the lesson page's
    /// prose; for a checkpoint the whole prose.
    #[arg(long)]
    pub text: Option<PathBuf>,
    /// Checkpoints: positions per window (windows of N + 1 tokens, all N scored). Default: the
    /// model's context, at most 1,024.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_number)]
    pub context: Option<u64>,
    /// Checkpoints: print what the run would cost (windows, FLOPs, expected time at this machine's
    /// measured rate) and stop.
    #[arg(long)]
    pub plan: bool,
    /// Checkpoints: threads the forward pass runs on, 1 to this machine's cores. Default: all of them.
    #[arg(long, allow_hyphen_values = true, value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Checkpoints: what the linear layers multiply in. auto (the default) is the checkpoint's own
    /// precision wherever this CPU multiplies it natively, as PyTorch's torch_dtype="auto": bf16 for a
    /// bf16 file on a CPU with AVX-512 BF16 or AMX, f32 otherwise. f32 matches transformers' f32
    /// results within 1e-4; bf16 rounds the layers' inputs and weights to bf16 and sums in f32, as
    /// PyTorch's bf16 compute does. The JSON's measured.compute_reason says which ran and why.
    #[arg(long, value_enum)]
    pub compute: Option<ComputeArg>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ComputeArg {
    Auto,
    F32,
    Bf16,
}

/// Which trained model: files on disk, or one of the two the page ships.
#[derive(Args)]
#[group(required = true, multiple = false)]
pub struct ModelArg {
    /// A model directory (model.safetensors, config.json, vocab.json) or a .safetensors file.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// A model the page ships: shipped (2 blocks of width 32) or six-blocks (6 of width 16).
    #[arg(long, value_parser = ["shipped", "six-blocks"])]
    pub model: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ScheduleArg {
    Cosine,
    Constant,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum NormArg {
    Pre,
    Post,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum DtypeArg {
    F32,
    F16,
    /// A byte a weight with a scale per row (a quarter of f32; read by tblock and the page, not by transformers).
    Int8,
    /// As int8 with 127 levels (−63 to 63) a row: the same file size, smaller once compressed.
    Int7,
    /// As int8 with 63 levels (−31 to 31) a row: the same file size, about a fifth less once compressed.
    Int6,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Json,
    Table,
    /// `count` only: a ready-to-paste `<tb-anatomy>` (a config.json inlined beside it).
    Html,
}

/// A count on the command line: a whole number (its range is checked against the model later).
pub fn whole_number(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| format!("must be a whole number of at least 1, got \"{text}\""))
}

/// A thread count: 1 to this machine's cores (more only queue behind each other).
pub fn thread_count(text: &str) -> Result<usize, String> {
    let most = transformer_block::nn::parallel::most_threads();
    match text.trim().parse::<i128>() {
        Ok(n) if n >= 1 && n <= most as i128 => Ok(n as usize),
        Ok(n) => Err(format!("{n} threads: choose 1 to {most} (this machine's cores)")),
        Err(_) => Err(format!(
            "a thread count is a whole number from 1 to {most} (this machine's cores), got \"{}\"",
            transformer_block::error::clip(text)
        )),
    }
}

pub fn seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "a seed is a whole number from 0 to 18446744073709551615, got \"{}\"",
            transformer_block::error::clip(text)
        )
    })
}

pub fn token_id(text: &str) -> Result<usize, String> {
    text.trim().parse::<usize>().map_err(|_| format!("token ids are whole numbers from 0, got \"{text}\""))
}
