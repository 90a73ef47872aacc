//! The events of a packetdrill script, after `gtests/net/packetdrill/parser.y`: each event is a
//! time (`0`, `+.1`, `*`, `0.1~0.2`, `+.2~+.25`) and an action: a TCP packet (`<` inbound,
//! `>` outbound), a system call (`+0...0.1 name(args) = result`), a shell command in back
//! quotes or a `%{ python }%` block.
//!
//! The grammar here is the subset the TCP scripts use: IPv4 TCP packets with the MSS, SACK,
//! SACK-permitted, timestamp, window-scale, NOP and EOL options; system calls with integers,
//! names, `...`, lists, structs and `|`. Anything else (UDP, ICMP, IP headers, ECN flags,
//! Fast Open, MD5 options) is kept as [`Action::Unsupported`] with what it is, so a script that
//! uses it is reported as unsupported at that line instead of being misread.

use super::lexer::{lex, Tok, Token};

/// A parsed script: its `--option=value` lines and its events in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    pub options: Vec<(u32, String, String)>,
    /// The command before the first event (`init_command`: packetdrill runs it first).
    pub init: Option<(u32, String)>,
    pub events: Vec<Event>,
    /// The command after the last event (`cleanup_command`).
    pub cleanup: Option<(u32, String)>,
}

/// How an event's time is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeKind {
    /// `1.5`: seconds from the start of the script.
    Absolute,
    /// `+.1`: seconds after the previous event.
    Relative,
    /// `*`: any time (outbound packets only).
    Any,
}

/// An event's time, microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Time {
    pub kind: TimeKind,
    pub usecs: i64,
    /// The end of a range (`a~b`): the event may happen anywhere in it.
    pub end_usecs: Option<i64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The line the event's time is on (1-based), and its last line.
    pub line: u32,
    pub last_line: u32,
    pub time: Time,
    pub action: Action,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Packet(PacketSpec),
    Syscall(Syscall),
    /// A back-quoted shell command.
    Command(String),
    /// A `%{ ... }%` Python block.
    Code(String),
    /// Something this parser knows packetdrill accepts but the runner does not model.
    Unsupported(String),
}

/// `<` or `>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Inbound,
    Outbound,
}

/// A TCP packet line.
#[derive(Clone, Debug, PartialEq)]
pub struct PacketSpec {
    pub dir: Direction,
    /// TCP flags (`tcp_flags` bits: FIN, SYN, RST, PSH, ACK).
    pub flags: u8,
    /// `start:end(len)`, relative to the sender's ISN.
    pub seq: u32,
    pub len: u32,
    pub ack: Option<u32>,
    /// `win N` (the header field, before window scaling); `None`: not checked.
    pub win: Option<u32>,
    /// The options; `None` for `<...>` (not checked).
    pub options: Option<Vec<TcpOpt>>,
}

/// A TCP option as the script writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcpOpt {
    Nop,
    Eol,
    Mss(u32),
    SackOk,
    Wscale(u8),
    Timestamp { val: u32, ecr: u32 },
    Sack(Vec<(u32, u32)>),
}

impl std::fmt::Display for TcpOpt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TcpOpt::Nop => write!(f, "nop"),
            TcpOpt::Eol => write!(f, "eol"),
            TcpOpt::Mss(m) => write!(f, "mss {m}"),
            TcpOpt::SackOk => write!(f, "sackOK"),
            TcpOpt::Wscale(w) => write!(f, "wscale {w}"),
            TcpOpt::Timestamp { val, ecr } => write!(f, "TS val {val} ecr {ecr}"),
            TcpOpt::Sack(b) => {
                write!(f, "sack")?;
                for (s, e) in b {
                    write!(f, " {s}:{e}")?;
                }
                Ok(())
            }
        }
    }
}

/// A system call: `name(args) = result [ERRNO [(note)]]`, blocking until `end_usecs` when
/// written `...end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Syscall {
    pub name: String,
    pub args: Vec<Expr>,
    pub result: Expr,
    pub errno: Option<String>,
    pub end_usecs: Option<i64>,
}

/// An argument or result of a system call.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `...`: anything.
    Ellipsis,
    Int(i64),
    Float(f64),
    Str(String),
    /// A name (`SOCK_STREAM`, `MSG_MORE`).
    Word(String),
    /// `a | b`.
    Or(Vec<Expr>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `{a, b=c}`.
    Struct(Vec<(Expr, Option<Expr>)>),
    /// `name(args)` (`msg_iov(1)`, `htonl(1)`).
    Call(String, Vec<Expr>),
}

impl Expr {
    /// The integer value of `[N]`, `N` or a list of one integer.
    pub fn int(&self) -> Option<i64> {
        match self {
            Expr::Int(n) => Some(*n),
            Expr::List(v) if v.len() == 1 => v[0].int(),
            _ => None,
        }
    }
}

/// A parse error: the line and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

/// Parse a script.
pub fn parse(src: &str) -> Result<Script, ParseError> {
    let toks = lex(src).map_err(|e| ParseError {
        line: e.line,
        message: e.message,
    })?;
    let mut p = Parser { t: &toks, i: 0 };
    let mut script = Script::default();
    while p.i < p.t.len() {
        if p.is_punct(0, '-') && p.is_punct(1, '-') {
            script.options.push(p.option()?);
            continue;
        }
        if let Some(Tok::BackQuoted(c)) = p.peek(0) {
            if script.events.is_empty() && script.init.is_none() {
                script.init = Some((p.line(), c.clone()));
                p.i += 1;
                continue;
            }
            if p.i + 1 == p.t.len() && !script.events.is_empty() {
                script.cleanup = Some((p.line(), c.clone()));
                p.i += 1;
                continue;
            }
        }
        script.events.push(p.event()?);
    }
    Ok(script)
}

struct Parser<'a> {
    t: &'a [Token],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self, k: usize) -> Option<&Tok> {
        self.t.get(self.i + k).map(|t| &t.kind)
    }
    fn line(&self) -> u32 {
        self.t
            .get(self.i)
            .or(self.t.last())
            .map(|t| t.line)
            .unwrap_or(1)
    }
    fn is_punct(&self, k: usize, c: char) -> bool {
        self.peek(k) == Some(&Tok::Punct(c))
    }
    fn is_word(&self, k: usize, w: &str) -> bool {
        matches!(self.peek(k), Some(Tok::Word(x)) if x == w)
    }
    fn err<T>(&self, m: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line(),
            message: m.into(),
        })
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.peek(0).cloned();
        self.i += 1;
        t
    }
    fn expect_punct(&mut self, c: char) -> Result<(), ParseError> {
        if self.is_punct(0, c) {
            self.i += 1;
            Ok(())
        } else {
            self.err(format!("expected '{c}', found {}", self.describe()))
        }
    }
    fn describe(&self) -> String {
        match self.peek(0) {
            None => "the end of the script".into(),
            Some(Tok::Int(n)) => format!("{n}"),
            Some(Tok::Float(f)) => format!("{f}"),
            Some(Tok::Word(w)) => format!("'{w}'"),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::BackQuoted(_)) => "a ` command".into(),
            Some(Tok::Code(_)) => "a %{ block".into(),
            Some(Tok::Ellipsis) => "'...'".into(),
            Some(Tok::Punct(c)) => format!("'{c}'"),
        }
    }
    fn int(&mut self) -> Result<i64, ParseError> {
        match self.peek(0) {
            Some(Tok::Int(n)) => {
                let n = *n;
                self.i += 1;
                Ok(n)
            }
            _ => self.err(format!("expected an integer, found {}", self.describe())),
        }
    }
    fn u32(&mut self, what: &str) -> Result<u32, ParseError> {
        let n = self.int()?;
        u32::try_from(n).or_else(|_| self.err(format!("{what} {n} out of range")))
    }

    /// `--name=value` (a command-line option written in the script).
    fn option(&mut self) -> Result<(u32, String, String), ParseError> {
        let line = self.line();
        self.i += 2;
        let Some(Tok::Word(name)) = self.next() else {
            return self.err("expected an option name after --");
        };
        let mut value = String::new();
        if self.is_punct(0, '=') {
            self.i += 1;
            while self.i < self.t.len() && self.t[self.i].line == line {
                match self.next().unwrap() {
                    Tok::Int(n) => value.push_str(&n.to_string()),
                    Tok::Float(f) => value.push_str(&f.to_string()),
                    Tok::Word(w) | Tok::Str(w) => value.push_str(&w),
                    Tok::Punct(c) => value.push(c),
                    _ => return self.err("unexpected token in an option"),
                }
            }
        }
        Ok((line, name, value))
    }

    /// A time in seconds (integer or float), in microseconds.
    fn seconds(&mut self) -> Result<i64, ParseError> {
        match self.next() {
            Some(Tok::Int(n)) if n >= 0 => Ok(n * 1_000_000),
            Some(Tok::Float(f)) if f >= 0.0 => Ok((f * 1e6).round() as i64),
            _ => {
                self.i -= 1;
                self.err(format!("expected a time, found {}", self.describe()))
            }
        }
    }

    fn event(&mut self) -> Result<Event, ParseError> {
        let line = self.line();
        let time = if self.is_punct(0, '*') {
            self.i += 1;
            Time {
                kind: TimeKind::Any,
                usecs: 0,
                end_usecs: None,
            }
        } else {
            let rel = self.is_punct(0, '+');
            if rel {
                self.i += 1;
            }
            let usecs = self.seconds()?;
            let mut end_usecs = None;
            if self.is_punct(0, '~') {
                self.i += 1;
                if rel {
                    self.expect_punct('+')?;
                }
                end_usecs = Some(self.seconds()?);
            }
            Time {
                kind: if rel {
                    TimeKind::Relative
                } else {
                    TimeKind::Absolute
                },
                usecs,
                end_usecs,
            }
        };
        let action = match self.peek(0) {
            Some(Tok::Punct('<')) | Some(Tok::Punct('>')) => self.packet()?,
            Some(Tok::BackQuoted(c)) => {
                let c = c.clone();
                self.i += 1;
                Action::Command(c)
            }
            Some(Tok::Code(c)) => {
                let c = c.clone();
                self.i += 1;
                Action::Code(c)
            }
            Some(Tok::Ellipsis) => {
                self.i += 1;
                let end = self.seconds()?;
                self.syscall(Some(end))?
            }
            Some(Tok::Word(_)) if self.is_punct(1, '(') => self.syscall(None)?,
            _ => return self.err(format!("expected an event, found {}", self.describe())),
        };
        let last_line = self.t[self.i - 1].line;
        Ok(Event {
            line,
            last_line,
            time,
            action,
        })
    }

    /// A packet line: everything on the line of its `<` or `>`.
    fn packet(&mut self) -> Result<Action, ParseError> {
        let line = self.line();
        let dir = match self.next() {
            Some(Tok::Punct('<')) => Direction::Inbound,
            _ => Direction::Outbound,
        };
        let end = (self.i..self.t.len())
            .find(|&k| self.t[k].line != line)
            .unwrap_or(self.t.len());
        let rest = &self.t[self.i..end];
        let mut sub = Parser { t: rest, i: 0 };
        let r = sub.tcp_packet(dir);
        self.i = end;
        r
    }

    fn tcp_packet(&mut self, dir: Direction) -> Result<Action, ParseError> {
        let unsupported = |what: &str| Ok(Action::Unsupported(what.to_string()));
        if self.is_punct(0, '[') || self.is_punct(0, '(') {
            return unsupported("IP header fields in a packet ([...] or (...))");
        }
        for w in ["udp", "icmp", "gre", "mpls", "encap"] {
            if self.is_word(0, w) {
                return unsupported(&format!("{w} packets"));
            }
        }
        // flags: WORD ['.'] | '.' | '-'
        let mut flags = 0u8;
        use crate::include::linux::skbuff::tcp_flags::*;
        match self.next() {
            Some(Tok::Word(w)) => {
                for c in w.chars() {
                    flags |= match c {
                        'F' => FIN,
                        'S' => SYN,
                        'R' => RST,
                        'P' => PSH,
                        'E' | 'W' | 'A' => {
                            return unsupported(&format!("the ECN flag {c} (the model has no ECN)"))
                        }
                        'U' => return unsupported("the URG flag"),
                        _ => return self.err(format!("unknown TCP flag '{c}'")),
                    };
                }
                if self.is_punct(0, '.') {
                    self.i += 1;
                    flags |= ACK;
                }
            }
            Some(Tok::Punct('.')) => flags |= ACK,
            Some(Tok::Punct('-')) => {}
            _ => {
                self.i -= 1;
                return self.err(format!("expected TCP flags, found {}", self.describe()));
            }
        }
        let seq = self.u32("sequence number")?;
        self.expect_punct(':')?;
        let end = self.u32("sequence number")?;
        self.expect_punct('(')?;
        let len = self.u32("payload length")?;
        self.expect_punct(')')?;
        if end != seq.wrapping_add(len) {
            return self.err("inconsistent TCP sequence numbers and payload size");
        }
        let mut ack = None;
        let mut win = None;
        loop {
            if self.is_word(0, "ack") {
                self.i += 1;
                ack = Some(self.u32("ack")?);
            } else if self.is_word(0, "win") {
                self.i += 1;
                let w = self.u32("window")?;
                if w > 65_535 {
                    return self.err("TCP window value out of range");
                }
                win = Some(w);
            } else if self.is_word(0, "urg") {
                return unsupported("the urgent pointer");
            } else {
                break;
            }
        }
        let mut options = Some(Vec::new());
        if self.is_punct(0, '<') {
            self.i += 1;
            if self.peek(0) == Some(&Tok::Ellipsis) {
                self.i += 1;
                options = None;
            } else {
                let mut list = Vec::new();
                loop {
                    match self.tcp_option()? {
                        Ok(o) => list.push(o),
                        Err(what) => return unsupported(&what),
                    }
                    if self.is_punct(0, ',') {
                        self.i += 1;
                        continue;
                    }
                    break;
                }
                options = Some(list);
            }
            self.expect_punct('>')?;
        }
        if self.i < self.t.len() {
            return self.err(format!(
                "unexpected {} at the end of a packet",
                self.describe()
            ));
        }
        Ok(Action::Packet(PacketSpec {
            dir,
            flags,
            seq,
            len,
            ack,
            win,
            options,
        }))
    }

    /// One TCP option; `Err(what)` for an option the runner does not model.
    fn tcp_option(&mut self) -> Result<Result<TcpOpt, String>, ParseError> {
        let Some(Tok::Word(w)) = self.next() else {
            self.i -= 1;
            return self.err(format!("expected a TCP option, found {}", self.describe()));
        };
        Ok(Ok(match w.as_str() {
            "nop" => TcpOpt::Nop,
            "eol" => TcpOpt::Eol,
            "mss" => TcpOpt::Mss(self.u32("mss")?),
            "sackOK" => TcpOpt::SackOk,
            "wscale" => {
                let n = self.u32("wscale")?;
                TcpOpt::Wscale(n.min(255) as u8)
            }
            "TS" => {
                if !self.is_word(0, "val") {
                    return self.err("expected 'val' after TS");
                }
                self.i += 1;
                let val = self.u32("TS val")?;
                if !self.is_word(0, "ecr") {
                    return self.err("expected 'ecr' in TS");
                }
                self.i += 1;
                let ecr = self.u32("TS ecr")?;
                TcpOpt::Timestamp { val, ecr }
            }
            "sack" => {
                let mut blocks = Vec::new();
                while matches!(self.peek(0), Some(Tok::Int(_))) {
                    let s = self.u32("SACK block")?;
                    self.expect_punct(':')?;
                    let e = self.u32("SACK block")?;
                    blocks.push((s, e));
                }
                TcpOpt::Sack(blocks)
            }
            other => return Ok(Err(format!("the TCP option '{other}'"))),
        }))
    }

    fn syscall(&mut self, end_usecs: Option<i64>) -> Result<Action, ParseError> {
        let Some(Tok::Word(name)) = self.next() else {
            return self.err("expected a system call");
        };
        self.expect_punct('(')?;
        let args = self.args(')')?;
        self.expect_punct('=')?;
        let result = self.expr()?;
        let line = self.t[self.i - 1].line;
        let mut errno = None;
        if let Some(Tok::Word(e)) = self.peek(0) {
            if self.t[self.i].line == line && e.starts_with('E') {
                errno = Some(e.clone());
                self.i += 1;
            }
        }
        // An optional note in parentheses: `(Resource temporarily unavailable)`.
        if self.is_punct(0, '(') && self.t[self.i].line == line {
            let mut depth = 0;
            while let Some(t) = self.next() {
                match t {
                    Tok::Punct('(') => depth += 1,
                    Tok::Punct(')') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(Action::Syscall(Syscall {
            name,
            args,
            result,
            errno,
            end_usecs,
        }))
    }

    /// Comma-separated expressions up to (and over) `close`.
    fn args(&mut self, close: char) -> Result<Vec<Expr>, ParseError> {
        let mut v = Vec::new();
        if self.is_punct(0, close) {
            self.i += 1;
            return Ok(v);
        }
        loop {
            v.push(self.expr()?);
            if self.is_punct(0, ',') {
                self.i += 1;
                continue;
            }
            self.expect_punct(close)?;
            return Ok(v);
        }
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let first = self.term()?;
        if !self.is_punct(0, '|') {
            return Ok(first);
        }
        let mut v = vec![first];
        while self.is_punct(0, '|') {
            self.i += 1;
            v.push(self.term()?);
        }
        Ok(Expr::Or(v))
    }

    fn term(&mut self) -> Result<Expr, ParseError> {
        match self.next() {
            Some(Tok::Ellipsis) => Ok(Expr::Ellipsis),
            Some(Tok::Int(n)) => Ok(Expr::Int(n)),
            Some(Tok::Float(f)) => Ok(Expr::Float(f)),
            Some(Tok::Str(s)) => Ok(Expr::Str(s)),
            Some(Tok::Word(w)) => {
                if self.is_punct(0, '(') {
                    self.i += 1;
                    let a = self.args(')')?;
                    Ok(Expr::Call(w, a))
                } else {
                    Ok(Expr::Word(w))
                }
            }
            Some(Tok::Punct('[')) => Ok(Expr::List(self.args(']')?)),
            Some(Tok::Punct('{')) => {
                let mut fields = Vec::new();
                if self.is_punct(0, '}') {
                    self.i += 1;
                    return Ok(Expr::Struct(fields));
                }
                loop {
                    let k = self.expr()?;
                    let v = if self.is_punct(0, '=') {
                        self.i += 1;
                        Some(self.expr()?)
                    } else {
                        None
                    };
                    fields.push((k, v));
                    if self.is_punct(0, ',') {
                        self.i += 1;
                        continue;
                    }
                    self.expect_punct('}')?;
                    return Ok(Expr::Struct(fields));
                }
            }
            _ => {
                self.i -= 1;
                self.err(format!("expected an expression, found {}", self.describe()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::include::linux::skbuff::tcp_flags::*;

    #[test]
    fn a_syn_with_options_parses_into_its_fields() {
        let s = parse("+.1 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>").unwrap();
        let e = &s.events[0];
        assert_eq!(e.time.kind, TimeKind::Relative);
        assert_eq!(e.time.usecs, 100_000);
        let Action::Packet(p) = &e.action else {
            panic!("{e:?}")
        };
        assert_eq!(p.flags, SYN);
        assert_eq!(p.win, Some(32792));
        assert_eq!(
            p.options.as_deref().unwrap(),
            [
                TcpOpt::Mss(1000),
                TcpOpt::SackOk,
                TcpOpt::Nop,
                TcpOpt::Nop,
                TcpOpt::Nop,
                TcpOpt::Wscale(7)
            ]
        );
    }

    #[test]
    fn a_multi_line_sendmsg_is_one_event_with_its_struct() {
        let s = parse(
            "+0 sendmsg(4, {msg_name(...)=...,\n msg_iov(1)=[{..., 40}], msg_flags=0}, MSG_MORE) = 40\n+.21~+.215 > P. 1:41(40) ack 1",
        )
        .unwrap();
        assert_eq!(s.events.len(), 2);
        let Action::Syscall(c) = &s.events[0].action else {
            panic!()
        };
        assert_eq!(c.name, "sendmsg");
        assert_eq!(c.args[2], Expr::Word("MSG_MORE".into()));
        assert_eq!(s.events[0].last_line, 2);
        assert_eq!(s.events[1].time.end_usecs, Some(215_000));
    }

    #[test]
    fn an_errno_and_its_note_follow_the_result() {
        let s = parse("+0 write(4, ..., 100) = -1 EAGAIN (Resource temporarily unavailable)\n+0 > . 1:1(0) ack 1").unwrap();
        let Action::Syscall(c) = &s.events[0].action else {
            panic!()
        };
        assert_eq!(c.result, Expr::Int(-1));
        assert_eq!(c.errno.as_deref(), Some("EAGAIN"));
        assert_eq!(s.events.len(), 2);
    }

    #[test]
    fn ecn_flags_and_fast_open_options_are_kept_as_unsupported() {
        let s = parse("0 < SEW 0:0(0) win 1\n+0 > S. 0:0(0) ack 1 <mss 1460,FO abcd>").unwrap();
        assert!(matches!(&s.events[0].action, Action::Unsupported(w) if w.contains("ECN")));
        assert!(matches!(&s.events[1].action, Action::Unsupported(w) if w.contains("FO")));
    }

    #[test]
    fn a_blocking_call_keeps_its_end_time() {
        let s = parse("+0...0.040 poll([{fd=4, events=POLLOUT, revents=POLLOUT}], 1, 1000) = 1")
            .unwrap();
        let Action::Syscall(c) = &s.events[0].action else {
            panic!()
        };
        assert_eq!(c.end_usecs, Some(40_000));
    }

    #[test]
    fn a_bad_sequence_range_names_its_line() {
        let e =
            parse("0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3\n+0 > . 1:5(3) ack 1").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("inconsistent"), "{}", e.message);
    }
}
