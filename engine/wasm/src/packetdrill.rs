//! The site's packetdrill player: a `.pkt` script run against the engine, as the report
//! `sendpath packetdrill --json` prints (`sendpath_core::packetdrill::Report`), so the page
//! and the CLI give the same verdict, line for line.

/// Run `text` (the script named `name`) and return its report as JSON. A script that does not
/// parse is a report too (outcome `error`, with its line), never an exception.
pub fn report_json(text: &str, name: &str) -> String {
    let r = sendpath_core::packetdrill::run(text, name);
    serde_json::to_string(&r).expect("strings and numbers encode as JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORK: &str =
        include_str!("../../../scenarios/packetdrill/nagle/sockopt_cork_nodelay.pkt");

    #[test]
    fn a_passing_script_reports_each_event_with_its_line_and_time() {
        let v: serde_json::Value = serde_json::from_str(&report_json(CORK, "cork.pkt")).unwrap();
        assert_eq!(v["outcome"]["kind"], "pass");
        let lines = v["lines"].as_array().unwrap();
        let first_out = lines.iter().find(|l| l["kind"] == "outbound").unwrap();
        assert_eq!(first_out["line"], 12);
        assert_eq!(
            first_out["detail"],
            "S. 0:0(0) ack 1 win 65535 <mss 1460,nop,wscale 8>"
        );
    }

    #[test]
    fn a_script_that_does_not_parse_is_an_error_report_with_its_line() {
        let v: serde_json::Value =
            serde_json::from_str(&report_json("0 socket(\n+0 > . 1:5(3)", "bad.pkt")).unwrap();
        assert_eq!(v["outcome"]["kind"], "error");
        assert!(v["outcome"]["line"].as_u64().unwrap() >= 1);
    }
}
