//! TinyGPT against an independent reference: tests/reference/make_fixtures.py computed the expected
//! hidden states and logits in float64 NumPy from the committed safetensors files; here the Rust model
//! loads the same files and must match every number within `TOLERANCE`. The fixtures for a seed
//! also pin the initialisation: `TinyGpt::tiny(seed)` must give exactly the weights in the file.
//!
//! To regenerate the fixtures, see tests/reference/README.md. CI needs only the committed files.

use std::path::{Path, PathBuf};

use serde_json::Value;
use transformer_block::nn::{weights, Matrix, TinyGpt};

/// The largest absolute difference allowed between a Rust value and the reference.
const TOLERANCE: f64 = 1e-5;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures")
}

/// Every fixture file, sorted by name.
fn fixture_files() -> Vec<PathBuf> {
    let dir = fixtures_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The model a fixture names, loaded from its committed weights file.
fn load_model(fixture: &Value, fixture_path: &Path) -> TinyGpt {
    let name = fixture["weights"].as_str().expect("the fixture names its weights file");
    let path = fixtures_dir().join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    weights::load(&bytes, None)
        .unwrap_or_else(|e| panic!("{}: {} does not load: {e}", fixture_path.display(), path.display()))
}

/// A [T][n] array of numbers from the fixture.
fn rows(v: &Value, what: &str) -> Vec<Vec<f64>> {
    v.as_array()
        .unwrap_or_else(|| panic!("{what} is not an array of rows"))
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap_or_else(|| panic!("{what} has a row that is not an array"))
                .iter()
                .map(|x| x.as_f64().unwrap_or_else(|| panic!("{what} holds a value that is not a number: {x}")))
                .collect()
        })
        .collect()
}

/// The largest absolute difference between the Rust matrix and the expected rows, and where.
struct Difference {
    largest: f64,
    row: usize,
    col: usize,
    expected: f64,
    got: f64,
}

fn compare(got: &Matrix, expected: &[Vec<f64>], what: &str) -> Result<Difference, String> {
    let shape = (expected.len(), expected.first().map_or(0, Vec::len));
    if got.shape() != shape || expected.iter().any(|r| r.len() != shape.1) {
        return Err(format!("{what}: Rust gives shape {:?}, the fixture {:?}", got.shape(), shape));
    }
    let mut worst = Difference { largest: -1.0, row: 0, col: 0, expected: 0.0, got: 0.0 };
    for (i, row) in expected.iter().enumerate() {
        for (j, &e) in row.iter().enumerate() {
            let g = got[(i, j)] as f64;
            // NaN compares false with everything: count it as the worst possible difference.
            let d = if (g - e).is_nan() { f64::INFINITY } else { (g - e).abs() };
            if d > worst.largest {
                worst = Difference { largest: d, row: i, col: j, expected: e, got: g };
            }
        }
    }
    Ok(worst)
}

#[test]
fn tiny_gpt_matches_the_numpy_reference_within_1e_5() {
    let files = fixture_files();
    let names: Vec<String> = files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for required in ["tiny-gpt-seed-0.json", "tiny-gpt-seed-7.json", "tiny-gpt-seed-7-stretched.json"] {
        assert!(names.iter().any(|n| n == required), "fixture {required} is missing from {}", fixtures_dir().display());
    }

    let mut failures = Vec::new();
    let mut compared = 0;
    for path in &files {
        let fixture = read_json(path);
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut model = load_model(&fixture, path);
        assert_eq!(
            model.config.n_heads,
            fixture["n_head"].as_u64().expect("n_head"),
            "{file}: the weights file's config and the fixture disagree on the head count"
        );
        let cases = fixture["cases"].as_array().unwrap_or_else(|| panic!("{file} has no cases"));
        assert!(!cases.is_empty(), "{file} has no cases");
        for case in cases {
            let ids: Vec<usize> = case["ids"]
                .as_array()
                .expect("ids")
                .iter()
                .map(|x| x.as_u64().expect("an id is a whole number") as usize)
                .collect();
            let causal = case["causal"].as_bool().expect("causal is true or false");
            model.set_causal(causal);
            let label = format!("{file} ids {ids:?} causal={causal}");
            let hidden = model.hidden(&ids).unwrap_or_else(|e| panic!("{label}: hidden fails: {e}"));
            let logits = model.forward(&ids).unwrap_or_else(|e| panic!("{label}: forward fails: {e}"));
            for (what, got) in [("hidden", &hidden), ("logits", &logits)] {
                let expected = rows(&case[what], &format!("{label} {what}"));
                match compare(got, &expected, &format!("{label} {what}")) {
                    Err(message) => failures.push(message),
                    Ok(d) => {
                        compared += 1;
                        println!("{label} {what}: largest difference {:.3e}", d.largest);
                        if d.largest > TOLERANCE {
                            failures.push(format!(
                                "{label} {what}: largest difference {:.3e} > {TOLERANCE:e} at [{}][{}] \
                                 (reference {}, Rust {})",
                                d.largest, d.row, d.col, d.expected, d.got
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 0, "no tensors were compared");
    assert!(failures.is_empty(), "TinyGPT differs from the NumPy reference:\n  {}", failures.join("\n  "));
}

/// Which of the model's parts differ between two models (bit for bit).
fn differing_parts(a: &TinyGpt, b: &TinyGpt) -> Vec<String> {
    let mut parts = Vec::new();
    if a.wte != b.wte {
        parts.push("wte".to_string());
    }
    if a.wpe != b.wpe {
        parts.push("wpe".to_string());
    }
    if a.blocks.len() != b.blocks.len() {
        parts.push(format!("the number of blocks ({} against {})", a.blocks.len(), b.blocks.len()));
    }
    for (i, (x, y)) in a.blocks.iter().zip(&b.blocks).enumerate() {
        for (name, differs) in [
            ("ln_1", x.ln_1 != y.ln_1),
            ("attn", x.attn != y.attn),
            ("ln_2", x.ln_2 != y.ln_2),
            ("mlp", x.mlp != y.mlp),
        ] {
            if differs {
                parts.push(format!("h.{i}.{name}"));
            }
        }
    }
    if a.ln_f != b.ln_f {
        parts.push("ln_f".to_string());
    }
    parts
}

#[test]
fn the_committed_weights_are_tiny_gpts_initialisation_for_their_seed() {
    let mut seeds = Vec::new();
    for path in fixture_files() {
        let fixture = read_json(&path);
        let Some(seed) = fixture["seed"].as_u64() else {
            // Derived weights (the stretched file) have no seed.
            assert!(fixture["derived_from"].is_string(), "{}: neither a seed nor derived_from", path.display());
            continue;
        };
        let committed = load_model(&fixture, &path);
        let built = TinyGpt::tiny(seed);
        let differs = differing_parts(&built, &committed);
        assert!(
            differs.is_empty(),
            "TinyGpt::tiny({seed}) no longer gives the weights in {}: {} differ. If the initialisation \
             changed on purpose, regenerate the fixtures (tests/reference/README.md).",
            fixture["weights"],
            differs.join(", ")
        );
        seeds.push(seed);
    }
    seeds.sort();
    assert_eq!(seeds, [0, 7], "fixtures pin the initialisation for seeds 0 and 7");
}
