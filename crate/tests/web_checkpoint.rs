//! The checkpoint reader in the browser, as a page's worker will use it: a Hugging Face checkpoint's
//! shards held in wasm memory ([`Shards::from_buffers`]), read by the same decoder as natively, and
//! every bad file refused with a message, never a panic (which would abort the instance).
//!
//! `wasm-pack test --headless --chrome crate` (and `--firefox`), like web.rs.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

use transformer_block::checkpoint::arriving::{Arriving, CHECKPOINT_LIMIT};
use transformer_block::checkpoint::shards::{index_files, Shards};
use transformer_block::config::ModelConfig;
use transformer_block::experiments::stepped::{Experiment, Stepped};
use transformer_block::nn::decoder::{Decoder, WeightSource};
use transformer_block::nn::decoder_shape::DecoderShape;

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! fixture {
    ($file:literal) => {
        include_bytes!(concat!("../../tests/reference/fixtures/checkpoints/llama/", $file))
    };
}

/// The Llama fixture (bf16, three shards) as the page would hold it.
fn llama_shards() -> Vec<(String, Vec<u8>)> {
    let index = std::str::from_utf8(fixture!("model.safetensors.index.json")).unwrap();
    let shards: [&[u8]; 3] = [
        fixture!("model-00001-of-00003.safetensors"),
        fixture!("model-00002-of-00003.safetensors"),
        fixture!("model-00003-of-00003.safetensors"),
    ];
    index_files(index).unwrap().into_iter().zip(shards).map(|(f, b)| (f, b.to_vec())).collect()
}

fn llama_shape() -> DecoderShape {
    shape_of(std::str::from_utf8(fixture!("config.json")).unwrap())
}

/// Shape of the checkpoint whose config.json is `text`.
fn shape_of(text: &str) -> DecoderShape {
    let config = ModelConfig::from_hf_config_json(text).unwrap();
    DecoderShape::from_config(&config, &serde_json::from_str(text).unwrap()).unwrap()
}

/// `decoder`'s logits on the probe of `expected` (tests/reference/make_checkpoints.py's float64
/// forward pass, on its first positions), within 1e-4.
fn gives_the_reference_logits(mut decoder: Decoder<Shards>, expected: &[u8]) {
    let expected: serde_json::Value = serde_json::from_slice(expected).unwrap();
    let ids: Vec<usize> = serde_json::from_value(expected["probe"]["ids"].clone()).unwrap();
    let want: Vec<Vec<f64>> = serde_json::from_value(expected["probe"]["logits"].clone()).unwrap();
    let v = decoder.shape.vocab_size;
    let logits = decoder.logits(&ids).unwrap();
    for (p, row) in want.iter().enumerate() {
        for (i, &w) in row.iter().enumerate() {
            let got = f64::from(logits[p * v + i]);
            assert!((got - w).abs() < 1e-4, "position {p}, logit {i}: {got} against {w}");
        }
    }
}

#[wasm_bindgen_test]
fn shards_held_in_wasm_memory_give_the_reference_logits() {
    let decoder = Decoder::new(llama_shape(), Shards::from_buffers(llama_shards()).unwrap()).unwrap();
    gives_the_reference_logits(decoder, fixture!("expected.json"));
}

#[wasm_bindgen_test]
fn gpt2_f32_read_in_place_gives_the_reference_logits() {
    // GPT-2's Conv1D [in, out] weights, f32: read where they lie, a widened panel at a time.
    macro_rules! gpt2 {
        ($file:literal) => {
            include_bytes!(concat!("../../tests/reference/fixtures/checkpoints/gpt2/", $file))
        };
    }
    let shape = shape_of(std::str::from_utf8(gpt2!("config.json")).unwrap());
    let shards = Shards::from_buffers(vec![("model.safetensors".into(), gpt2!("model.safetensors").to_vec())]).unwrap();
    gives_the_reference_logits(Decoder::new(shape, shards).unwrap(), gpt2!("expected.json"));
}

/// Every number of `want` within 1e-4 of `got`'s (nested objects and arrays; the rest equal).
fn close(got: &serde_json::Value, want: &serde_json::Value, path: &str) {
    use serde_json::Value;
    match want {
        Value::Object(w) => w.iter().for_each(|(k, v)| close(&got[k], v, &format!("{path}.{k}"))),
        Value::Array(w) => {
            assert_eq!(got.as_array().map(Vec::len), Some(w.len()), "{path}: length");
            w.iter()
                .zip(got.as_array().unwrap())
                .enumerate()
                .for_each(|(i, (w, g))| close(g, w, &format!("{path}[{i}]")));
        }
        Value::Number(n) if n.is_f64() => {
            let (g, w) = (got.as_f64().unwrap_or(f64::NAN), n.as_f64().unwrap());
            assert!((g - w).abs() <= 1e-4, "{path}: {g} against the reference's {w}");
        }
        _ => assert_eq!(got, want, "{path}"),
    }
}

#[wasm_bindgen_test]
fn the_experiments_a_pass_at_a_time_give_the_references_figures() {
    // What the page's worker runs: the ablation and the stream on the Llama fixture's shards in wasm
    // memory, a forward pass a step, against the float64 reference (which `tblock ablate` and
    // `tblock stream` match natively: crate/tests/checkpoints.rs).
    let expected: serde_json::Value = serde_json::from_slice(fixture!("expected.json")).unwrap();
    let ids: Vec<usize> = serde_json::from_value(expected["ids"].clone()).unwrap();
    let window = expected["context"].as_u64().unwrap() as usize;
    let mut decoder = Decoder::new(llama_shape(), Shards::from_buffers(llama_shards()).unwrap()).unwrap();
    for (what, key) in [(Experiment::Ablation, "ablate"), (Experiment::Stream, "stream")] {
        let mut s = Stepped::new(what, &ids, window, decoder.shape.n_layers).unwrap();
        let mut steps = 0;
        while !s.done() {
            s.step(&mut decoder).unwrap();
            steps += 1;
        }
        assert_eq!(steps, s.total_passes(), "{key}: a step a pass");
        let found = serde_json::to_value(s.found(decoder.shape.vocab_size).unwrap()).unwrap();
        close(&found, &expected[key], key);
    }
}

/// A safetensors file of `header` (JSON) and `data` bytes.
fn safetensors(header: &str, data: &[u8]) -> Vec<u8> {
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(data);
    bytes
}

#[wasm_bindgen_test]
fn bad_shards_are_refused_with_a_message() {
    let refused = |files: Vec<(String, Vec<u8>)>| Shards::from_buffers(files).err().map(|e| e.to_string());
    // Cut short, and offsets that overlap or run past the file.
    let mut cut = llama_shards();
    cut[0].1.truncate(1000);
    let e = refused(cut).expect("a cut shard is refused");
    assert!(e.contains("model-00001-of-00003.safetensors") && e.contains("not a valid safetensors file"), "{e}");
    let overlap = r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}"#;
    let e = refused(vec![("model.safetensors".into(), safetensors(overlap, &[0; 12]))]).expect("overlap");
    assert!(e.contains("not a valid safetensors file"), "{e}");
    let past = r#"{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}"#;
    let e = refused(vec![("model.safetensors".into(), safetensors(past, &[0; 8]))]).expect("past the end");
    assert!(e.contains("not a valid safetensors file"), "{e}");
    let e = refused(vec![("model.safetensors".into(), b"not a safetensors file".to_vec())]).expect("garbage");
    assert!(e.contains("not a valid safetensors file"), "{e}");
    // A dtype outside f32, f16 and bf16: named when the tensor is read.
    let ints = r#"{"a":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}}"#;
    let shards = Shards::from_buffers(vec![("model.safetensors".into(), safetensors(ints, &[0; 8]))]).unwrap();
    let e = shards.read("a", &[2], &mut Vec::new()).unwrap_err().to_string();
    assert!(e.contains("I32") && e.contains("f32, f16 and bf16 are read"), "{e}");
    // A shard left out: the decoder names the tensors it misses.
    let e = Decoder::new(llama_shape(), Shards::from_buffers(llama_shards()[1..].to_vec()).unwrap())
        .err()
        .map(|e| e.to_string())
        .expect("a missing shard is refused");
    assert!(e.contains("is missing from the checkpoint"), "{e}");
    // An index that names a path, or no map at all.
    assert!(index_files(r#"{"weight_map": {"a": "../x.safetensors"}}"#).is_err());
    assert!(index_files("[]").is_err());
}

/// The shards as a page's worker streams them: in pieces of `piece` bytes, each file's size given
/// (a server's Content-Length) or not.
fn arrived(piece: usize, sized: bool) -> Result<Shards, String> {
    let mut arriving = Arriving::new();
    for (name, bytes) in llama_shards() {
        arriving.begin(&name, sized.then_some(bytes.len() as u64)).map_err(|e| e.to_string())?;
        for p in bytes.chunks(piece) {
            arriving.push(p).map_err(|e| e.to_string())?;
        }
        arriving.end().map_err(|e| e.to_string())?;
    }
    arriving.finish().map_err(|e| e.to_string())
}

#[wasm_bindgen_test]
fn shards_streamed_in_pieces_give_the_same_logits() {
    let ids = [1, 5, 9, 2];
    let whole =
        Decoder::new(llama_shape(), Shards::from_buffers(llama_shards()).unwrap()).unwrap().logits(&ids).unwrap();
    for (piece, sized) in [(1 << 16, true), (7, false), (4096, false)] {
        let shards = arrived(piece, sized).unwrap();
        let logits = Decoder::new(llama_shape(), shards).unwrap().logits(&ids).unwrap();
        assert_eq!(logits, whole, "pieces of {piece} bytes");
    }
}

#[wasm_bindgen_test]
fn the_loader_refuses_what_does_not_fit_or_does_not_add_up() {
    let shards = llama_shards();
    let (name, bytes) = &shards[0];
    // Over the page's limit: refused on the size alone, before a byte is held.
    let mut arriving = Arriving::new();
    let e = arriving.begin(name, Some(CHECKPOINT_LIMIT + 1)).unwrap_err().to_string();
    assert!(e.contains("at most 2,147,483,648 bytes") && e.contains("tblock inspect"), "{e}");
    // Cut short: the header says more than came.
    let mut arriving = Arriving::new();
    arriving.begin(name, None).unwrap();
    arriving.push(&bytes[..bytes.len() - 10]).unwrap();
    let e = arriving.end().unwrap_err().to_string();
    assert!(e.contains("cut short") && e.contains(name), "{e}");
    // A length that is not the header's.
    let mut arriving = Arriving::new();
    arriving.begin(name, Some(bytes.len() as u64 + 3)).unwrap();
    let e = arriving.push(bytes).unwrap_err().to_string();
    assert!(e.contains("its header says"), "{e}");
    // A piece before its file began.
    assert!(Arriving::new().push(&bytes[..8]).is_err());
}
