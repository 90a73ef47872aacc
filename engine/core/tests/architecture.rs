//! The folders of `engine/core/src` and the direction of their imports.
//!
//! Every `crate::a::b::…` path in a source file is an edge from the file's folder to the folder
//! of the module it names. Code inside `#[cfg(test)]` modules is left out: a unit test may build
//! a whole simulated world (`sim::testkit`) to drive one kernel function. The checks:
//! - only `lib.rs` sits at the root of `src/`;
//! - the folder graph has no cycle, at every depth (`net/core` and `net/ipv4` are two folders,
//!   and so are `net` and `sim`), so a reader can take the folders bottom up;
//! - the kernel's twins (`net/`, `lib/`, `drivers/`) never name the simulator (`sim/`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's text without its `#[cfg(test)]` modules (from the attribute to the end of the
/// module's braces).
fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        // A `mod x;` declaration (the tests in their own file) or a `mod x { … }` block.
        let semi = after.find(';');
        let brace = after.find('{');
        match (semi, brace) {
            (Some(s), Some(b)) if s < b => rest = &after[s + 1..],
            (_, Some(b)) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (k, ch) in after[b..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &after[end..];
            }
            _ => rest = "",
        }
    }
    out.push_str(rest);
    out
}

/// The folder (relative to `src/`, "" for the root) of the module a `crate::` path names: the
/// deepest folder its leading segments walk into.
fn folder_of_path(src: &Path, segs: &[&str]) -> String {
    let mut dir = PathBuf::new();
    for (k, s) in segs.iter().enumerate() {
        if src.join(&dir).join(s).is_dir() {
            dir.push(s);
        } else {
            // `s` is a file module (or an item of the folder's mod.rs): the folder is `dir`,
            // unless it is the last segment naming an item.
            let _ = k;
            break;
        }
    }
    dir.to_string_lossy().replace('\\', "/")
}

fn folder_of_file(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    rel.parent()
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default()
}

/// Folder → folders it imports, with one example file and path per edge.
fn folder_graph() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut g: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for f in files {
        let from = folder_of_file(&src, &f);
        let text = without_tests(&fs::read_to_string(&f).unwrap());
        g.entry(from.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let tail = &text[i + "crate::".len()..];
            let path: String = tail
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let to = folder_of_path(&src, &segs);
            if to != from {
                let rel = f.strip_prefix(&src).unwrap().to_string_lossy().to_string();
                g.entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_insert(format!("{rel}: crate::{path}"));
            }
        }
    }
    g
}

/// A cycle in the graph, as the list of folders, if there is one.
fn find_cycle(g: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeMap<String, String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(p) = stack.iter().position(|s| s == n) {
            let mut c = stack[p..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for m in g.get(n).into_iter().flat_map(|e| e.keys()) {
            if let Some(c) = visit(m, g, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(c) = visit(n, g, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

#[test]
fn only_lib_rs_sits_at_the_root_of_src() {
    let mut at_root: Vec<String> = fs::read_dir(src_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    at_root.sort();
    assert_eq!(at_root, vec!["lib.rs".to_string()]);
}

#[test]
fn the_kernel_twins_sit_at_the_kernels_paths() {
    for f in [
        "net/ipv4/tcp.rs",
        "net/ipv4/tcp_output.rs",
        "net/ipv4/tcp_input.rs",
        "net/ipv4/tcp_timer.rs",
        "net/ipv4/tcp_cong.rs",
        "net/ipv4/tcp_cubic.rs",
        "net/sched/sch_generic.rs",
        "net/sched/sch_fq.rs",
        "net/sched/sch_fq_codel.rs",
        "net/core/dev.rs",
        "net/core/skbuff.rs",
        "net/core/sock.rs",
        "lib/dynamic_queue_limits.rs",
        "drivers/net/veth.rs",
    ] {
        assert!(src_dir().join(f).is_file(), "{f} is missing");
    }
}

#[test]
fn no_import_cycle_crosses_a_folder() {
    let g = folder_graph();
    if let Some(c) = find_cycle(&g) {
        let mut why = String::new();
        for w in c.windows(2) {
            why.push_str(&format!("\n  {} -> {}   ({})", w[0], w[1], g[&w[0]][&w[1]]));
        }
        panic!("import cycle across folders: {}{why}", c.join(" -> "));
    }
}

#[test]
fn kernel_twins_never_name_the_simulator() {
    let g = folder_graph();
    for (from, to) in &g {
        if from.starts_with("net") || from.starts_with("lib") || from.starts_with("drivers") {
            for (t, example) in to {
                assert!(
                    !t.starts_with("sim"),
                    "{from} imports the simulator: {example}"
                );
            }
        }
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    // The check above can fail: a graph with a -> b -> a has a cycle.
    let mut g: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    g.entry("a".into())
        .or_default()
        .insert("b".into(), String::new());
    g.entry("b".into())
        .or_default()
        .insert("a".into(), String::new());
    g.entry("c".into())
        .or_default()
        .insert("a".into(), String::new());
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    let text = "use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::sim::x;\n}\nfn f() {}";
    assert!(!without_tests(text).contains("sim"));
    assert!(without_tests(text).contains("fn f()"));
}
