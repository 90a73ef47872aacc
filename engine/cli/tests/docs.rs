//! The command output the README and `docs/cli.md` show is the binary's: each block under a
//! `<!-- cli: ARGS -->` marker must be `$ sendpath ARGS` followed by what `sendpath ARGS` prints
//! (an ARGS ending in `| head -N` or `| tail -N` keeps that many lines). `SENDPATH_BLESS=1 cargo
//! test -p sendpath-cli --test docs` rewrites the blocks from the binary.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// What `sendpath ARGS` prints, cut as the marker's `| head -N` / `| tail -N` says.
fn output(marker: &str) -> String {
    let (cmd, cut) = match marker.split_once(" | ") {
        Some((c, cut)) => (c, Some(cut)),
        None => (marker, None),
    };
    let args: Vec<&str> = cmd.split_whitespace().collect();
    let o = Command::new(env!("CARGO_BIN_EXE_sendpath"))
        .args(&args)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "sendpath {cmd}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept: Vec<&str> = match cut.map(|c| c.split_whitespace().collect::<Vec<_>>()) {
        None => lines,
        Some(c) if c.len() == 2 && c[0] == "head" => {
            let n: usize = c[1].trim_start_matches('-').parse().unwrap();
            lines.into_iter().take(n).collect()
        }
        Some(c) if c.len() == 2 && c[0] == "tail" => {
            let n: usize = c[1].trim_start_matches('-').parse().unwrap();
            let skip = lines.len().saturating_sub(n);
            lines.into_iter().skip(skip).collect()
        }
        Some(c) => panic!("a marker cuts with | head -N or | tail -N, not {c:?}"),
    };
    format!("$ sendpath {marker}\n{}\n", kept.join("\n"))
}

/// The file with every marked block replaced by the binary's output; the number of blocks.
fn refreshed(text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    let mut blocks = 0;
    while let Some(l) = lines.next() {
        out.push_str(l);
        out.push('\n');
        let Some(marker) = l
            .strip_prefix("<!-- cli: ")
            .and_then(|m| m.strip_suffix(" -->"))
        else {
            continue;
        };
        blocks += 1;
        assert_eq!(lines.next(), Some("```text"), "a ```text block after {l}");
        out.push_str("```text\n");
        for body in lines.by_ref() {
            if body == "```" {
                break;
            }
        }
        out.push_str(&output(marker));
        out.push_str("```\n");
    }
    (out, blocks)
}

#[test]
fn the_commands_in_the_readme_and_docs_print_what_the_docs_show() {
    let bless = std::env::var_os("SENDPATH_BLESS").is_some();
    for file in ["README.md", "docs/cli.md"] {
        let path = root().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let (want, blocks) = refreshed(&text);
        assert!(blocks > 0, "{file} shows no sendpath command");
        if bless {
            std::fs::write(&path, &want).unwrap();
            continue;
        }
        if text != want {
            let diff = text
                .lines()
                .zip(want.lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("shown:   {a}\nprinted: {b}"))
                .unwrap_or_else(|| "the blocks differ in length".to_string());
            panic!(
                "{file}: a command's output changed; run SENDPATH_BLESS=1 cargo test -p sendpath-cli --test docs\n{diff}"
            );
        }
    }
}
