//! Bad scenario files and the exact error each gives (issue 15).
//!
//! `tests/bad_inputs/NAME.toml` is a bad file, `NAME.err` the one line a user sees for it
//! (`sendpath run NAME.toml` prints it after `sendpath: `). `NAME.args`, when present, holds
//! the command line's options one per line (`--set` then `KEY=VALUE`, `--variant` then a name):
//! then the bad input is in those. Each must be rejected within 2 s. The corpus covers
//! truncated files, wrong types, values out of range, contradictory and duplicate keys, binary,
//! empty and wrongly encoded files (Latin-1, UTF-16), other tools' output (a capture, nstat,
//! bpftrace), bad `--set` and `--variant` arguments; huge files and keys are generated below.
//! After a deliberate change of wording, `UPDATE_BAD_INPUTS=1 cargo test --test bad_inputs`
//! rewrites the `.err` files; review the diff.
//!
//! The second test mangles every shipped scenario (truncations, wrong types, out-of-range
//! values, unknown sections and keys) and checks that every rejection names the file and the
//! key or the line.

use std::path::Path;
use std::time::{Duration, Instant};

use sendpath_core::scenario::{self, Scenario, ScenarioError};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bad_inputs");

/// What `sendpath run FILE [--variant V] [--set S]...` does with the bytes of a file, up to the
/// run.
fn check_with(
    bytes: &[u8],
    file: &str,
    variant: Option<&str>,
    sets: &[String],
) -> Result<(), ScenarioError> {
    let src = scenario::decode(bytes, file)?;
    Scenario::parse(src, file)?.config(variant, sets)?;
    Ok(())
}

fn check(bytes: &[u8], file: &str, sets: &[String]) -> Result<(), ScenarioError> {
    check_with(bytes, file, None, sets)
}

fn timed(bytes: &[u8], file: &str, sets: &[String]) -> ScenarioError {
    timed_with(bytes, file, None, sets)
}

fn timed_with(bytes: &[u8], file: &str, variant: Option<&str>, sets: &[String]) -> ScenarioError {
    let t0 = Instant::now();
    let e = check_with(bytes, file, variant, sets).expect_err(file);
    assert!(
        t0.elapsed() < Duration::from_secs(2),
        "{file}: rejected after {:?}",
        t0.elapsed()
    );
    e
}

#[test]
fn every_bad_file_gives_its_exact_error_within_2_s() {
    let update = std::env::var_os("UPDATE_BAD_INPUTS").is_some();
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "{} bad files", files.len());
    let mut wrong = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let (mut variant, mut sets) = (None, Vec::new());
        if let Ok(args) = std::fs::read_to_string(path.with_extension("args")) {
            let mut it = args.lines();
            while let Some(opt) = it.next() {
                let val = it
                    .next()
                    .unwrap_or_else(|| panic!("{name}: {opt} without a value"));
                match opt {
                    "--set" => sets.push(val.to_string()),
                    "--variant" => variant = Some(val.to_string()),
                    _ => panic!("{name}.args: unknown option {opt}"),
                }
            }
        }
        let e = timed_with(
            &std::fs::read(path).unwrap(),
            name,
            variant.as_deref(),
            &sets,
        )
        .to_string();
        assert!(e.starts_with(&format!("{name}: ")), "{e}");
        let expected_path = path.with_extension("err");
        if update {
            std::fs::write(&expected_path, format!("{e}\n")).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("{} is missing", expected_path.display()));
        if e != expected.trim_end() {
            wrong.push(format!(
                "{name}\n  expected: {}\n  got:      {e}",
                expected.trim_end()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));

    // Generated: a file over the limit, a huge key, a huge --set.
    let huge = format!("title = \"{}\"\n", "x".repeat(scenario::MAX_SCENARIO_BYTES));
    assert_eq!(
        timed(huge.as_bytes(), "huge.toml", &[]).to_string(),
        "huge.toml: larger than 1048576 bytes: a scenario file is at most 1 MiB"
    );
    let key = "k".repeat(1_000_000);
    let e = timed(
        format!("title = \"t\"\n[link]\n{key} = 1\n").as_bytes(),
        "key.toml",
        &[],
    );
    assert_eq!(
        e.to_string(),
        format!(
            "key.toml: link.{}... (1000005 bytes): unknown key (1000005 characters; key names have at most 128)",
            &format!("link.{key}")[5..60]
        )
    );
    let e = timed(b"title = \"t\"\n", "set.toml", &[format!("{key}=1")]);
    assert!(
        e.to_string().starts_with("set.toml: kkkk"),
        "{}",
        &e.to_string()[..80]
    );
    assert!(e.to_string().len() < 200);
}

/// An error "names where": the file, and a key or a line.
fn names_where(e: &ScenarioError, file: &str) -> bool {
    let text = e.to_string();
    text.starts_with(&format!("{file}: "))
        && (e.key.is_some() || text.contains("line ") || text.contains("no variant"))
}

#[test]
fn every_rejection_of_a_mangled_scenario_names_the_file_and_the_key_or_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut sources: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            (
                p.file_name().unwrap().to_str().unwrap().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    sources.sort();
    let (mut cases, mut rejected) = (0usize, 0usize);
    let mut vague = Vec::new();
    let mut try_case = |file: &str, src: &str, sets: &[String]| {
        cases += 1;
        if let Err(e) = check(src.as_bytes(), file, sets) {
            rejected += 1;
            if !names_where(&e, file) {
                vague.push(format!("{e}\n--- input ---\n{src}\n--- sets {sets:?}"));
            }
        }
    };
    // Replacement values of every kind: wrong types, out of range, nonsense.
    let values = [
        "\"fast\"",
        "-1",
        "0",
        "2",
        "99999999999",
        "1.5",
        "true",
        "[1, 2]",
        "{ a = 1 }",
        "1979-05-27",
        "\"\"",
        "\"4096 1\"",
        "nan",
        "\"cubic\"",
        "300000000000",
        "99999999999999999999",
        "1e999",
    ];
    for (file, src) in &sources {
        // Truncated at every 7th character.
        for cut in (0..src.len()).step_by(7) {
            if src.is_char_boundary(cut) {
                try_case(file, &src[..cut], &[]);
            }
        }
        let lines: Vec<&str> = src.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some((lhs, _)) = line.split_once(" = ") else {
                continue;
            };
            if line.trim_start().starts_with('#') {
                continue;
            }
            for v in values {
                let mut l2 = lines.clone();
                let new = format!("{lhs} = {v}");
                l2[i] = &new;
                try_case(file, &l2.join("\n"), &[]);
            }
            // The key misspelt.
            let mut l2 = lines.clone();
            let new = format!("{}x = 1", lhs.trim_end_matches('"'));
            l2[i] = &new;
            try_case(file, &l2.join("\n"), &[]);
        }
        // An unknown section, a section that is a value, a host that does not exist.
        for extra in [
            "\n[netem]\nloss = 1\n",
            "\n[tc]\nqdisc = [1]\n",
            "\n[host.router.socket]\nTCP_NODELAY = 1\n",
            "\n[variants.v]\n\"nope\" = 1\n",
            "\n[sysctl]\nx = 1\n",
        ] {
            try_case(file, &format!("{src}{extra}"), &[]);
        }
        // Bad --set strings.
        for set in [
            "nonsense",
            "link.rate_mbit=fast",
            "link.rate_mbit=0",
            "router:TCP_NODELAY=1",
            "receiver:kernel=3.14",
            "kernel=2.6",
            "=1",
            "net.ipv4.tcp_wmem=1 2",
            "cpu.model=free",
        ] {
            try_case(file, src, &[set.to_string()]);
        }
    }
    eprintln!("{cases} mangled scenarios, {rejected} rejected");
    assert!(rejected > 1000, "only {rejected} of {cases} were rejected");
    assert!(
        vague.is_empty(),
        "{} of {rejected} rejections do not name the key or the line:\n{}",
        vague.len(),
        vague
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
