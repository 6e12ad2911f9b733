//! Running `tblock` as a course author would, for the command-line tests (cli.rs, cli_train.rs).
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

pub fn tblock(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tblock")).args(args).output().expect("tblock runs")
}

/// A run that succeeds and prints JSON.
pub fn json(args: &[&str]) -> Value {
    let out = tblock(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

/// A failing run: non-zero exit, nothing on stdout, the message on stderr, no panic.
pub fn error(args: &[&str]) -> String {
    let out = tblock(args);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}

/// A fresh directory under the system's temporary one, named for the test and this process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tblock-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
