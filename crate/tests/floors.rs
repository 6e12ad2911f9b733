//! The workspace's imports follow its floors. A crate depends only on the crates below it (the
//! kernels, then transformer-block); within a crate a top-level module imports only the ones below
//! it (in transformer-block: the analytic model at the bottom, TinyGPT and the checkpoints' decoders
//! above it, then the checkpoints, training, the experiments, the WebAssembly facade at the top); and no two
//! modules import each other, directly or round a circle, but a module and the modules inside it (a
//! parent's types are its children's to use, and it declares them). Read from the manifests, and
//! from the sources' `use` lines and `crate::` / `super::` paths, tests' modules left out.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's crates, lowest floor first; each may depend only on those before it.
const CRATES: [(&str, &str); 2] = [("tb-kernels", "kernels"), ("transformer-block", "crate")];

/// Each crate's top-level modules, lowest floor first; each may import only those before it (and
/// whatever the crates below hold).
const FLOORS: [(&str, &[&str]); 1] = [(
    "crate",
    &[
        "digits",
        "messages",
        "error",
        "numbers",
        "formula",
        "config",
        "count",
        "cost",
        "report",
        "embed",
        "nn",
        "checkpoint",
        "train",
        "examples",
        "bench",
        "experiments",
        "web",
    ],
)];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bin") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a source file is: src/a/b.rs and src/a/b/mod.rs are a::b; src/lib.rs the root.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Every path a line of code names from `crate::`, `super::` or `self::`, braces expanded.
fn paths_in(code: &str) -> Vec<String> {
    fn expand(prefix: &str, rest: &str, out: &mut Vec<String>) {
        // rest: "a::b", or "a::{b, c::{d}}".
        match rest.find('{') {
            None => out.push(format!("{prefix}{}", rest.trim())),
            Some(open) => {
                let head = &rest[..open];
                let inner = &rest[open + 1..rest.rfind('}').unwrap_or(rest.len())];
                let (mut depth, mut start) = (0, 0);
                for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            let item = inner[start..i].trim();
                            if !item.is_empty() {
                                expand(&format!("{prefix}{head}"), item, out);
                            }
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start).map(|i| i + from) {
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            // The path runs over identifiers, ::, and balanced braces.
            let (mut end, mut depth) = (at, 0);
            for (i, c) in code[at..].char_indices() {
                let ok = c.is_ascii_alphanumeric()
                    || c == '_'
                    || c == ':'
                    || (depth > 0 && (c == ',' || c == ' ' || c == '\n'));
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    _ if ok => {}
                    _ => {
                        end = at + i;
                        break;
                    }
                }
                end = at + i + c.len_utf8();
            }
            expand("", &code[at..end], &mut out);
        }
    }
    out
}

/// The module `path` (as written in `from`) lands in: its longest start that is a module.
fn resolve(path: &str, from: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String> = match *segments.first()? {
        "crate" => Vec::new(),
        "self" => from.to_vec(),
        // super of a::b (a file b.rs, or a/b/mod.rs) is a.
        "super" => from[..from.len().saturating_sub(1)].to_vec(),
        _ => return None,
    };
    segments.remove(0);
    while segments.first() == Some(&"super") {
        base.pop();
        segments.remove(0);
    }
    let mut best = None;
    let mut m = base.clone();
    if modules.contains(&m) {
        best = Some(m.clone());
    }
    for s in segments {
        m.push(s.to_string());
        if modules.contains(&m) {
            best = Some(m.clone());
        }
    }
    best
}

fn is_within(a: &[String], b: &[String]) -> bool {
    a.len() >= b.len() && a[..b.len()] == *b
}

/// module -> the modules of the same crate it imports (not counting its own ancestors and
/// descendants), for the crate in folder `dir`.
fn imports(dir: &str) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = workspace().join(dir).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let from = module_of(&src, file);
        let text = std::fs::read_to_string(file).unwrap();
        // The code, without comments, up to the tests' module.
        let code: String = text
            .lines()
            .take_while(|l| l.trim() != "#[cfg(test)]")
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let to: &mut BTreeSet<Vec<String>> = edges.entry(from.clone()).or_default();
        for path in paths_in(&code) {
            if let Some(target) = resolve(&path, &from, &modules) {
                if !is_within(&target, &from) && !is_within(&from, &target) {
                    to.insert(target);
                }
            }
        }
    }
    edges
}

#[test]
fn a_crate_depends_only_on_the_crates_below_it() {
    for (at, (name, dir)) in CRATES.iter().enumerate() {
        let manifest = std::fs::read_to_string(workspace().join(dir).join("Cargo.toml")).unwrap();
        // Dependencies of every kind and target: a line naming another crate of the workspace by its path.
        for (other_at, (other, other_dir)) in CRATES.iter().enumerate() {
            let path = format!("path = \"../{other_dir}\"");
            let named = manifest.lines().any(|l| l.trim_start().starts_with(other) && l.contains(&path));
            assert!(!named || other_at < at, "{name} depends on {other}, a crate on its floor or above it");
        }
    }
    let manifest = std::fs::read_to_string(workspace().join("crate/Cargo.toml")).unwrap();
    assert!(manifest.contains("tb-kernels = { path = \"../kernels\""), "the reader of manifests reads them");
}

#[test]
fn a_top_level_module_imports_only_the_floors_below_it() {
    let mut upward = Vec::new();
    for (dir, floors) in FLOORS {
        let floor = |m: &[String]| m.first().and_then(|top| floors.iter().position(|f| f == top));
        for (from, targets) in imports(dir) {
            let Some(f) = floor(&from) else {
                assert!(from.is_empty(), "{dir}: {}: a top-level module FLOORS does not place", from.join("::"));
                continue;
            };
            for to in targets {
                if floor(&to).is_some_and(|t| t > f) {
                    upward.push(format!("{dir}: {} imports {}", from.join("::"), to.join("::")));
                }
            }
        }
    }
    assert!(upward.is_empty(), "imports up a floor:\n{}", upward.join("\n"));
}

#[test]
fn no_two_modules_import_each_other_even_round_a_circle() {
    let mut circles = Vec::new();
    for (_, dir) in CRATES {
        circles.extend(circles_in(&imports(dir)).into_iter().map(|c| format!("{dir}: {c}")));
    }
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

/// Every circle of imports among `edges`' modules, as "a -> b -> a".
fn circles_in(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    // Depth-first, each module's path kept: a module met again on it closes a circle.
    fn visit(
        m: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        path: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        if let Some(at) = path.iter().position(|p| p == m) {
            let names: Vec<String> = path[at..].iter().chain([m]).map(|p| p.join("::")).collect();
            circles.push(names.join(" -> "));
            return;
        }
        if !done.insert(m.clone()) {
            return;
        }
        path.push(m.clone());
        for to in edges.get(m).into_iter().flatten() {
            visit(to, edges, path, done, circles);
        }
        path.pop();
    }
    let (mut done, mut circles) = (BTreeSet::new(), Vec::new());
    for m in edges.keys() {
        visit(m, edges, &mut Vec::new(), &mut done, &mut circles);
    }
    circles
}

#[test]
fn the_reader_of_imports_reads_what_the_sources_write() {
    let got = paths_in("use crate::nn::{decoder::{Decoder, KvCache}, BlockMode};\nlet x = super::to_js(&y);");
    assert_eq!(
        got,
        ["crate::nn::decoder::Decoder", "crate::nn::decoder::KvCache", "crate::nn::BlockMode", "super::to_js"]
    );
    let edges = imports("crate");
    let web = |name: &str| vec!["web".to_string(), name.to_string()];
    assert!(
        edges[&web("checkpoint_sampling")].contains(&web("checkpoint")),
        "{:?}",
        edges[&web("checkpoint_sampling")]
    );
    assert!(edges[&vec!["train".to_string(), "corpus".to_string()]]
        .contains(&vec!["nn".to_string(), "vocabulary".to_string()]));
}
