//! The TypeScript types in `web/src/engine/generated/` are generated from the Rust types and
//! committed. This test regenerates them into a scratch folder and fails when the committed
//! ones differ, so a Rust change cannot silently leave the site's types behind.
//!
//! `npm run types` (scripts/build-wasm.mjs --types) runs it with `SENDPATH_UPDATE_TYPES=1`,
//! which rewrites the committed folder instead.
#![cfg(feature = "ts")]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn read_tree(dir: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let text = fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                out.insert(path.strip_prefix(base).unwrap().to_path_buf(), text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn generated_typescript_types_match_the_rust_types() {
    let cfg = ts_rs::Config::from_env();
    let committed = PathBuf::from(
        std::env::var("TS_RS_EXPORT_DIR")
            .expect("TS_RS_EXPORT_DIR is set by engine/.cargo/config.toml"),
    );

    if std::env::var("SENDPATH_UPDATE_TYPES").as_deref() == Ok("1") {
        if committed.exists() {
            fs::remove_dir_all(&committed).expect("remove the old generated types");
        }
        sendpath_wasm::export_typescript_types(&cfg).expect("export the TypeScript types");
        return;
    }

    let scratch = std::env::temp_dir().join(format!("sendpath-ts-types-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    sendpath_wasm::export_typescript_types(&cfg.with_out_dir(&scratch))
        .expect("export the TypeScript types");
    let fresh = read_tree(&scratch);
    fs::remove_dir_all(&scratch).expect("remove the scratch folder");
    let old = read_tree(&committed);

    let mut problems = Vec::new();
    for (path, text) in &fresh {
        match old.get(path) {
            None => problems.push(format!("missing: {}", path.display())),
            Some(t) if t != text => problems.push(format!("out of date: {}", path.display())),
            Some(_) => {}
        }
    }
    for path in old.keys().filter(|p| !fresh.contains_key(*p)) {
        problems.push(format!("no longer generated: {}", path.display()));
    }
    assert!(
        problems.is_empty(),
        "the TypeScript types in {} do not match the Rust types:\n  {}\n\
         run `npm run types` and commit the result",
        committed.display(),
        problems.join("\n  ")
    );
}
