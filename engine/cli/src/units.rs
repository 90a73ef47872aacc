//! Times on the command line: `120ms`, `1.5s`, `250us` (or `µs`), `40000ns`.

/// Nanoseconds of a time written with its unit; `what` names the option in the error.
pub fn parse_time(what: &str, s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale = match unit {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "" => {
            return Err(format!(
                "{what}: {s} has no unit; write it as 120ms, 1.5s, 250us or 40000ns"
            ))
        }
        u => {
            return Err(format!(
                "{what}: unknown unit {u} in {s}; units are ns, us, ms, s"
            ))
        }
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("{what}: not a time: {s} (write it as 120ms, 1.5s, 250us)"))?;
    let ns = v * scale;
    if !(0.0..=1.8e19).contains(&ns) {
        return Err(format!("{what}: {s} is out of range"));
    }
    Ok(ns.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_take_their_unit() {
        assert_eq!(parse_time("--at", "120ms"), Ok(120_000_000));
        assert_eq!(parse_time("--at", "1.5s"), Ok(1_500_000_000));
        assert_eq!(parse_time("--at", "250us"), Ok(250_000));
        assert_eq!(parse_time("--at", "40000ns"), Ok(40_000));
        assert!(parse_time("--at", "120").unwrap_err().contains("no unit"));
        assert!(parse_time("--at", "3min")
            .unwrap_err()
            .contains("unknown unit min"));
    }
}
