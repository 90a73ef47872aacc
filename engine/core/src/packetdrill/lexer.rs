//! Tokens of a packetdrill script, after `gtests/net/packetdrill/lexer.l`: comments (`//` to
//! the end of the line, `/* ... */`), back-quoted shell commands, `%{ python }%` blocks,
//! `...`, floats (`[-]?[0-9]*.[0-9]+`), integers (decimal, `0x` hex), quoted strings, words
//! and single punctuation characters.
//!
//! Words are kept as text: packetdrill's lexer turns many words into keywords (`ack`, `win`,
//! `sackOK`, ...), the parser here compares the text instead.

/// One token with the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub line: u32,
    pub kind: Tok,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Int(i64),
    Float(f64),
    Word(String),
    Str(String),
    /// `` `...` ``: a shell command.
    BackQuoted(String),
    /// `%{ ... }%`: Python run by packetdrill at the end of the script.
    Code(String),
    Ellipsis,
    Punct(char),
}

/// A lexing error: the line and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct LexError {
    pub line: u32,
    pub message: String,
}

/// Split a script into tokens.
pub fn lex(src: &str) -> Result<Vec<Token>, LexError> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut line = 1u32;
    let mut out = Vec::new();
    let err = |line, m: &str| LexError {
        line,
        message: m.to_string(),
    };
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b[i..].starts_with(b"/*") {
            let start = line;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(err(start, "unterminated /* comment"));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                if b[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            continue;
        }
        let start_line = line;
        let tok = if c == b'`' {
            let j = find(b, i + 1, b"`").ok_or_else(|| err(line, "unterminated ` command"))?;
            let text = &src[i + 1..j];
            line += text.matches('\n').count() as u32;
            i = j + 1;
            Tok::BackQuoted(text.to_string())
        } else if b[i..].starts_with(b"%{") {
            let j =
                find(b, i + 2, b"}%").ok_or_else(|| err(line, "unterminated %{ python block"))?;
            let text = &src[i + 2..j];
            line += text.matches('\n').count() as u32;
            i = j + 2;
            Tok::Code(text.to_string())
        } else if c == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                if b[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            if j >= b.len() {
                return Err(err(line, "unterminated string"));
            }
            let text = &src[i + 1..j];
            line += text.matches('\n').count() as u32;
            i = j + 1;
            Tok::Str(text.to_string())
        } else if b[i..].starts_with(b"...") {
            i += 3;
            Tok::Ellipsis
        } else if let Some((tok, len)) = number(&b[i..]) {
            i += len;
            tok
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let w = &src[i..j];
            i = j;
            Tok::Word(w.to_string())
        } else if c.is_ascii() {
            i += 1;
            Tok::Punct(c as char)
        } else {
            return Err(err(line, "a character outside ASCII"));
        };
        out.push(Token {
            line: start_line,
            kind: tok,
        });
    }
    Ok(out)
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    (from..b.len().saturating_sub(pat.len() - 1)).find(|&k| b[k..].starts_with(pat))
}

/// A number at the start of `b`: `0x..` hex, `[-]?[0-9]*.[0-9]+` float, `[-]?[0-9]+` integer.
fn number(b: &[u8]) -> Option<(Tok, usize)> {
    let neg = usize::from(b[0] == b'-');
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    if neg == 0 && b.starts_with(b"0x") {
        let n = b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if n > 0 {
            let s = std::str::from_utf8(&b[2..2 + n]).ok()?;
            return Some((Tok::Int(i64::from_str_radix(s, 16).ok()?), 2 + n));
        }
    }
    let int = digits(neg);
    let after = neg + int;
    if after < b.len() && b[after] == b'.' && !b[after..].starts_with(b"...") {
        let frac = digits(after + 1);
        if frac > 0 {
            let len = after + 1 + frac;
            let s = std::str::from_utf8(&b[..len]).ok()?;
            return Some((Tok::Float(s.parse().ok()?), len));
        }
    }
    if int > 0 {
        let s = std::str::from_utf8(&b[..after]).ok()?;
        return Some((Tok::Int(s.parse().ok()?), after));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn a_blocking_time_splits_into_integer_ellipsis_and_float() {
        assert_eq!(
            kinds("0...0.1"),
            vec![Tok::Int(0), Tok::Ellipsis, Tok::Float(0.1)]
        );
    }

    #[test]
    fn packet_flags_with_a_dot_are_a_word_and_a_dot() {
        assert_eq!(
            kinds("+.1 > P. 1:5(4)"),
            vec![
                Tok::Punct('+'),
                Tok::Float(0.1),
                Tok::Punct('>'),
                Tok::Word("P".into()),
                Tok::Punct('.'),
                Tok::Int(1),
                Tok::Punct(':'),
                Tok::Int(5),
                Tok::Punct('('),
                Tok::Int(4),
                Tok::Punct(')'),
            ]
        );
    }

    #[test]
    fn comments_are_skipped_and_lines_counted_through_them() {
        let t = lex("// one\n/* two\nthree */ 4 `a\nb` 5").unwrap();
        assert_eq!(t[0].line, 3);
        assert_eq!(t[1].kind, Tok::BackQuoted("a\nb".into()));
        assert_eq!(t[2].line, 4);
    }
}
