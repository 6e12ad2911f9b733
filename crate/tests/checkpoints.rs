//! The forward pass on real checkpoint families (GPT-2, a bf16 sharded Llama with llama3 rotary
//! scaling, an f16 Qwen2 with q/k/v biases and a tied head, a Mistral with a sliding window) against
//! an independent float64 PyTorch implementation (tests/reference/make_checkpoints.py, itself checked
//! against transformers): token ids equal to the Python tokenizers library's, the stream entering
//! each block and the logits, and the three experiments, within 1e-4.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use serde_json::Value;
use tb_kernels::product::Isa;
use transformer_block::checkpoint::shards::Shards;
use transformer_block::checkpoint::Checkpoint;
use transformer_block::experiments::ablation::ablate;
use transformer_block::experiments::stream::stream_stats;
use transformer_block::experiments::subject::{evaluate_intact, DecoderRun, Subject};
use transformer_block::nn::decoder::{Decoder, WeightSource};
use transformer_block::nn::parallel::Compute;
use transformer_block::nn::{BlockMode, BlockStreams};
use transformer_block::train::evaluate::windows;

const FAMILIES: [&str; 4] = ["gpt2", "llama", "qwen2", "mistral"];
const TOLERANCE: f64 = 1e-4;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures/checkpoints")
}

fn expected(family: &str) -> Value {
    read_json(family, "expected.json")
}

fn read_json(family: &str, file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixtures().join(family).join(file)).unwrap()).unwrap()
}

/// Every number of `want` (nested objects and arrays) within the tolerance of `got`'s.
fn close(got: &Value, want: &Value, path: &str) {
    close_within(got, want, path, TOLERANCE)
}

fn close_within(got: &Value, want: &Value, path: &str, tolerance: f64) {
    match want {
        Value::Object(w) => w.iter().for_each(|(k, v)| close_within(&got[k], v, &format!("{path}.{k}"), tolerance)),
        Value::Array(w) => {
            let g = got.as_array().unwrap_or_else(|| panic!("{path}: not an array: {got}"));
            assert_eq!(g.len(), w.len(), "{path}: length");
            w.iter().zip(g).enumerate().for_each(|(i, (w, g))| close_within(g, w, &format!("{path}[{i}]"), tolerance));
        }
        Value::Number(n) if n.is_f64() => {
            let (g, w) = (got.as_f64().unwrap_or(f64::NAN), n.as_f64().unwrap());
            assert!((g - w).abs() <= tolerance, "{path}: {g} against the reference's {w}");
        }
        _ => assert_eq!(got, want, "{path}"),
    }
}

fn eval_ids() -> String {
    std::fs::read_to_string(fixtures().join("eval.txt")).unwrap()
}

#[test]
fn the_tokenizer_gives_the_python_librarys_ids() {
    for family in FAMILIES {
        let c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids = c.tokenizer.encode(&eval_ids()).unwrap();
        let want: Vec<usize> = serde_json::from_value(expected(family)["ids"].clone()).unwrap();
        assert_eq!(ids, want, "{family}");
    }
}

#[test]
fn each_family_knows_its_size_and_dtype() {
    for (family, dtype) in FAMILIES.into_iter().zip(["f32", "bf16", "f16", "f32"]) {
        let c = Checkpoint::open(&fixtures().join(family)).unwrap();
        assert_eq!(c.parameters, expected(family)["parameters"].as_u64().unwrap(), "{family}: the analytic count");
        assert_eq!(c.dtype, dtype, "{family}");
        assert_eq!(c.window(None, "context").unwrap(), 64, "{family}: the model's context, under 1,024");
    }
}

#[test]
fn the_stream_into_each_block_and_the_logits_agree_with_the_reference() {
    for family in FAMILIES {
        let want = expected(family);
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids: Vec<usize> = serde_json::from_value(want["probe"]["ids"].clone()).unwrap();
        let (t, d, v) = (ids.len(), c.decoder.shape.d_model, c.decoder.shape.vocab_size);
        let mut blocks_in = vec![Vec::new(); c.decoder.shape.n_layers];
        let mut keep = |i: usize, s: BlockStreams| {
            blocks_in[i] = s.input.chunks(d).map(|r| r.to_vec()).collect::<Vec<_>>();
        };
        c.decoder.window_loss_with(&ids, &ids, Some(&mut keep)).unwrap();
        close(&serde_json::to_value(&blocks_in).unwrap(), &want["probe"]["blocks_in"], &format!("{family}.blocks_in"));
        let logits = c.decoder.logits(&ids).unwrap();
        let rows: Vec<Vec<f32>> = (0..t).map(|p| logits[p * v..(p + 1) * v].to_vec()).collect();
        close(&serde_json::to_value(&rows).unwrap(), &want["probe"]["logits"], &format!("{family}.logits"));
    }
}

#[test]
fn eval_ablate_and_stream_agree_with_the_reference() {
    for family in FAMILIES {
        let want = expected(family);
        let window = want["context"].as_u64().unwrap() as usize;
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids = c.tokenizer.encode(&eval_ids()).unwrap();
        let mut windows_done = 0;
        let mut tick = || windows_done += 1;
        let mut run = DecoderRun { decoder: &mut c.decoder, window, tick: &mut tick };
        let e = evaluate_intact(&mut run, &ids).unwrap();
        let all = windows(&ids, window).count();
        close(&serde_json::to_value(e).unwrap(), &want["eval"], &format!("{family}.eval"));
        let a = ablate(&mut run, &ids).unwrap();
        close(&serde_json::to_value(&a).unwrap(), &want["ablate"], &format!("{family}.ablate"));
        let s = stream_stats(&mut run, &ids).unwrap();
        close(&serde_json::to_value(&s).unwrap(), &want["stream"], &format!("{family}.stream"));
        let layers = c.decoder.shape.n_layers;
        assert_eq!(windows_done, all * (1 + (1 + 2 * layers) + 1), "{family}: a tick a window");
        assert!(c.decoder.block_modes.iter().all(|&m| m == BlockMode::Intact), "{family}: blocks put back");
    }
}

/// A checkpoint's tensors without their stored bytes: the bf16 products read the f32 copies instead.
struct Copies(Shards);

impl WeightSource for Copies {
    fn contains(&self, name: &str) -> bool {
        self.0.contains(name)
    }
    fn read(&self, name: &str, shape: &[usize], out: &mut Vec<f32>) -> transformer_block::error::Result<()> {
        self.0.read(name, shape, out)
    }
    fn read_rows(
        &self,
        name: &str,
        n_rows: usize,
        cols: usize,
        rows: std::ops::Range<usize>,
        out: &mut Vec<f32>,
    ) -> transformer_block::error::Result<()> {
        self.0.read_rows(name, n_rows, cols, rows, out)
    }
}

#[test]
fn bf16_products_agree_with_the_bf16_reference_on_every_instruction_set() {
    // tests/reference/bf16_compute.py: the float64 reference with each product's input and weights
    // rounded to bf16.
    for family in FAMILIES {
        let want = read_json(family, "expected-bf16.json");
        let window = expected(family)["context"].as_u64().unwrap() as usize;
        let mut results = Vec::new();
        for isa in Isa::available() {
            let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
            c.decoder.set_compute(Compute::Bf16);
            c.decoder.set_isa(isa);
            assert_eq!(c.decoder.compute(), (Compute::Bf16, isa));
            let ids = c.tokenizer.encode(&eval_ids()).unwrap();
            let mut tick = || {};
            let mut run = DecoderRun { decoder: &mut c.decoder, window, tick: &mut tick };
            let e = evaluate_intact(&mut run, &ids).unwrap();
            // The intact loss within 1.5e-5 (f32 products are 1.9e-5 to 2.2e-4 away from it); a block
            // overwritten moves further from the stream it was trained on, 2.3e-5 seen.
            close_within(&serde_json::to_value(e).unwrap(), &want["eval"], &format!("{family}.eval, {isa:?}"), 1.5e-5);
            let a = ablate(&mut run, &ids).unwrap();
            let path = format!("{family}.ablate, {isa:?}");
            close_within(&serde_json::to_value(&a).unwrap(), &want["ablate"], &path, 5e-5);
            let s = stream_stats(&mut run, &ids).unwrap();
            // A median of norms moves with the rare activation rounded the other way (f32 against
            // float64 before the rounding): 1.2e-4 seen.
            close_within(
                &serde_json::to_value(&s).unwrap(),
                &want["stream"],
                &format!("{family}.stream, {isa:?}"),
                5e-4,
            );
            results.push(e.loss);
        }
        // Read in place from the mapped file, or from f32 copies of the block: the same bits.
        let c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let shards = Shards::open(&fixtures().join(family)).unwrap();
        let mut copies = Decoder::new(c.decoder.shape.clone(), Copies(shards)).unwrap();
        copies.set_compute(Compute::Bf16);
        let mut mapped = c.decoder;
        mapped.set_compute(Compute::Bf16);
        let ids: Vec<usize> = c.tokenizer.encode(&eval_ids()).unwrap()[..window + 1].to_vec();
        let (inputs, targets) = (&ids[..window], &ids[1..]);
        assert_eq!(
            copies.window_loss(inputs, targets).unwrap(),
            mapped.window_loss(inputs, targets).unwrap(),
            "{family}: in place or copied"
        );
        // And bf16 is not f32: the products' rounding shows in the loss.
        let f32_loss = expected(family)["eval"]["loss"].as_f64().unwrap();
        assert!(results.iter().all(|l| (l - f32_loss).abs() > 1e-7), "{family}: {results:?} against f32 {f32_loss}");
    }
}

#[test]
fn the_ablation_reusing_the_intact_stream_gives_the_bits_of_each_pass_run_whole() {
    for family in FAMILIES {
        let window = expected(family)["context"].as_u64().unwrap() as usize;
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids = c.tokenizer.encode(&eval_ids()).unwrap();
        let all: Vec<&[usize]> = windows(&ids, window).collect();
        let n = c.decoder.shape.n_layers;
        let mut passes = 0;
        let mut tick = || passes += 1;
        let mut run = DecoderRun { decoder: &mut c.decoder, window, tick: &mut tick };
        let a = ablate(&mut run, &ids).unwrap();
        let whole = |run: &mut DecoderRun<_>, block: usize, mode: BlockMode| {
            let mut modes = vec![BlockMode::Intact; n];
            modes[block] = mode;
            run.loss(&all, &modes).unwrap().loss
        };
        for (i, b) in a.blocks.iter().enumerate() {
            assert_eq!(b.removed, whole(&mut run, i, BlockMode::Removed), "{family}: block {i} removed");
            assert_eq!(b.overwritten, whole(&mut run, i, BlockMode::Overwritten), "{family}: block {i} overwritten");
        }
        assert_eq!(a.intact, run.loss(&all, &vec![BlockMode::Intact; n]).unwrap().loss, "{family}: intact");
        assert_eq!(passes, all.len() * (1 + 2 * n) + all.len() * (1 + 2 * n), "{family}: a tick a window and pass");
    }
}

#[test]
fn an_inspection_shows_what_transformers_shows() {
    // tests/reference/checkpoint_inspect.py: transformers' output_attentions and output_hidden_states
    // (float32, eager attention) and the ten likeliest next tokens, on one short text.
    for family in FAMILIES {
        let want = read_json(family, "inspect.json");
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids = c.tokenizer.encode(want["text"].as_str().unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&ids).unwrap(), want["ids"], "{family}: ids");
        let (t, d) = (ids.len(), c.decoder.shape.d_model);
        let r = c.decoder.inspect(&ids, 10).unwrap();
        let nested = |flat: &[f32], row: usize| flat.chunks(row).map(<[f32]>::to_vec).collect::<Vec<_>>();
        let attentions: Vec<Vec<Vec<Vec<f32>>>> =
            r.attentions.iter().map(|a| a.chunks(t * t).map(|h| nested(h, t)).collect()).collect();
        close(&serde_json::to_value(&attentions).unwrap(), &want["attentions"], &format!("{family}.attentions"));
        let hidden: Vec<Vec<Vec<f32>>> = r.hidden_states.iter().map(|h| nested(h, d)).collect();
        close(&serde_json::to_value(&hidden).unwrap(), &want["hidden_states"], &format!("{family}.hidden_states"));
        // The same ten tokens in the same order, each probability within the tolerance.
        close(&serde_json::to_value(&r.next).unwrap(), &want["next"], &format!("{family}.next"));
    }
    // Past 64 tokens (or the model's context) an inspection is refused, naming what is allowed.
    let mut c = Checkpoint::open(&fixtures().join("gpt2")).unwrap();
    let e = c.decoder.inspect(&[1; 65], 10).unwrap_err().to_string();
    assert!(e.contains("1 to 64") && e.contains("tblock eval"), "{e}");
}

#[test]
fn shards_held_in_memory_read_as_the_mapped_files_do() {
    // What a page's worker will hand over: the index's shard files as buffers. The same decoder, the
    // same bits as the mapped directory; a shard cut short or an index that names no file refused.
    use transformer_block::checkpoint::shards::index_files;
    use transformer_block::config::ModelConfig;
    use transformer_block::nn::decoder_shape::DecoderShape;
    let dir = fixtures().join("llama");
    let index = std::fs::read_to_string(dir.join("model.safetensors.index.json")).unwrap();
    let files = index_files(&index).unwrap();
    assert_eq!(files.len(), 3);
    let buffers: Vec<(String, Vec<u8>)> =
        files.iter().map(|f| (f.clone(), std::fs::read(dir.join(f)).unwrap())).collect();
    let text = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let config = ModelConfig::from_hf_config_json(&text).unwrap();
    let shape = DecoderShape::from_config(&config, &serde_json::from_str(&text).unwrap()).unwrap();
    let mut held = Decoder::new(shape, Shards::from_buffers(buffers.clone()).unwrap()).unwrap();
    let mut mapped = Checkpoint::open(&dir).unwrap().decoder;
    let ids: Vec<usize> = serde_json::from_value(expected("llama")["probe"]["ids"].clone()).unwrap();
    assert_eq!(held.logits(&ids).unwrap(), mapped.logits(&ids).unwrap());
    // A shard cut short: its header names bytes past its end.
    let mut cut = buffers.clone();
    let n = cut[1].1.len();
    cut[1].1.truncate(n - 100);
    let e = Shards::from_buffers(cut).err().expect("a cut shard is refused").to_string();
    assert!(e.contains("model-00002-of-00003.safetensors") && e.contains("not a valid safetensors file"), "{e}");
    // A shard left out: the tensors it holds are named as missing when the decoder is made.
    let shape = DecoderShape::from_config(&config, &serde_json::from_str(&text).unwrap()).unwrap();
    let e = Decoder::new(shape, Shards::from_buffers(buffers[..2].to_vec()).unwrap()).err().unwrap().to_string();
    assert!(e.contains("is missing from the checkpoint"), "{e}");
    for (bad, says) in [
        ("{}", "no \"weight_map\""),
        ("{\"weight_map\": {\"a\": \"../model.safetensors\"}}", "a shard is a file name"),
        ("{\"weight_map\": {\"a\": 7}}", "must name a shard file"),
        ("not json", "model.safetensors.index.json"),
    ] {
        let e = index_files(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn gpt2_conv1d_weights_flipped_in_memory_give_the_same_forward() {
    // The page turns GPT-2's Conv1D [in, out] to nn.Linear's [out, in] once, in the buffers it
    // holds (Checkpoint::hold_conv1d_as_linear); a mapped file is left as it is. The forward is the
    // same: bit for bit on the kernels' product (the page's), within rounding on faer's (natively
    // the strides differ).
    use transformer_block::nn::parallel::Kernel;
    let dir = fixtures().join("gpt2");
    let mut mapped = Checkpoint::open(&dir).unwrap();
    assert!(!mapped.hold_conv1d_as_linear().unwrap(), "a mapped file is read-only");
    let held =
        Shards::from_buffers(vec![("model.safetensors".into(), std::fs::read(dir.join("model.safetensors")).unwrap())])
            .unwrap();
    let text = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let tokenizer = transformer_block::checkpoint::tokenizer::TextTokenizer::from_json(
        &std::fs::read(dir.join("tokenizer.json")).unwrap(),
    )
    .unwrap();
    let mut flipped = Checkpoint::from_parts(&text, held, tokenizer, "gpt2").unwrap();
    let tensors = flipped.decoder.conv1d_tensors();
    assert_eq!(tensors.len(), 4 * flipped.decoder.shape.n_layers);
    assert!(flipped.hold_conv1d_as_linear().unwrap());
    assert!(flipped.decoder.weights.conv1d_as_linear());
    let ids = mapped.tokenizer.encode("Attention is the only stage that mixes positions.").unwrap();
    for kernel in [Kernel::Plain, Kernel::Blocked] {
        mapped.decoder.set_kernel(kernel);
        flipped.decoder.set_kernel(kernel);
        let (a, b) = (mapped.decoder.logits(&ids).unwrap(), flipped.decoder.logits(&ids).unwrap());
        let most = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
        if kernel == Kernel::Plain {
            assert!(a == b, "the kernels' product: the same sums (most apart {most})");
        } else {
            assert!(most <= 1e-4, "faer: {most}");
        }
    }
    // Flipping again changes nothing.
    flipped.decoder.set_kernel(Kernel::Plain);
    let before = flipped.decoder.logits(&ids).unwrap();
    assert!(flipped.hold_conv1d_as_linear().unwrap());
    assert!(flipped.decoder.logits(&ids).unwrap() == before, "flipped twice");
}

#[test]
fn the_next_tokens_logits_are_the_last_row_and_the_tokenizer_decodes_what_it_encodes() {
    // The sampling view's numbers (the page's next_tokens and continuations): the logits after the
    // last position alone through the head, which are the last row of the window's logits.
    for family in FAMILIES {
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let text = "Attention is the only stage that mixes positions.";
        let ids = c.tokenizer.encode(text).unwrap();
        assert_eq!(c.tokenizer.decode(&ids).unwrap(), text, "{family}: decode(encode(text))");
        let v = c.decoder.shape.vocab_size;
        let all = c.decoder.logits(&ids).unwrap();
        let next = c.decoder.next_logits(&ids).unwrap();
        let last = &all[(ids.len() - 1) * v..];
        let worst = next.iter().zip(last).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        assert!(worst < 1e-5, "{family}: the last row within 1e-5, off by {worst}");
    }
}
