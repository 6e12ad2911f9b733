//! The page words the library's messages from catalogs (www/src/locales/*/library.js, keys "lib." +
//! a code of messages.rs). The English one is the crate's own templates, written out here, so each
//! message's English lives in one place; this test fails when the file is not what the crate says.
//!
//!   TB_WRITE_CATALOG=1 cargo test --test library_catalog   # after adding or changing a code

use std::fs;
use std::path::Path;

use transformer_block::messages::CODES;

/// The catalog as JavaScript: one entry per code, in the table's order.
fn catalog() -> String {
    let mut out = String::from(
        "// Written by crate/tests/library_catalog.rs from crate/src/messages.rs (the library's messages in\n\
         // English, one entry per code): do not edit; run TB_WRITE_CATALOG=1 cargo test --test\n\
         // library_catalog after changing a code there.\n\
         export default {\n",
    );
    for code in CODES {
        let text = code.english.replace('\\', "\\\\").replace('\'', "\\'");
        out.push_str(&format!("  'lib.{}': '{}',\n", code.key, text));
    }
    out.push_str("};\n");
    out
}

#[test]
fn the_english_catalog_of_library_messages_is_the_crates() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/src/locales/en/library.js");
    let want = catalog();
    if std::env::var_os("TB_WRITE_CATALOG").is_some() {
        fs::write(&path, &want).unwrap();
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is not what crate/src/messages.rs says: run TB_WRITE_CATALOG=1 cargo test --test library_catalog",
        path.display()
    );
}
