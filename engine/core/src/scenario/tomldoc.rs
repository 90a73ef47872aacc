//! A TOML document as plain values, read with the `toml` crate's parser alone
//! (`toml::de::DeTable`, feature `parse`).
//!
//! `toml::Table` would pull in the crate's serde deserializer, about a tenth of the wasm
//! module's code, for a conversion the scenario reader does by hand anyway (it checks every
//! value against the key registry). Tables keep the file's order.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// One TOML value.
#[derive(Clone, Debug, PartialEq)]
pub enum Tv {
    String(String),
    Integer(i64),
    Float(f64),
    Boolean(bool),
    /// A date or time: accepted by the grammar, used by no scenario key.
    Datetime,
    Array(Vec<Tv>),
    Table(Table),
}

/// A table's entries in the order of the file.
pub type Table = Vec<(String, Tv)>;

impl Tv {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Tv::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_table(&self) -> Option<&Table> {
        match self {
            Tv::Table(t) => Some(t),
            _ => None,
        }
    }

    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Tv::Integer(i) => Some(*i),
            _ => None,
        }
    }

    /// "a string", "an integer", ...: for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Tv::String(_) => "a string",
            Tv::Integer(_) => "an integer",
            Tv::Float(_) => "a float",
            Tv::Boolean(_) => "a boolean",
            Tv::Datetime => "a date",
            Tv::Array(_) => "an array",
            Tv::Table(_) => "a table",
        }
    }
}

/// Parse a whole document. The error is one line: the parser's message after its line and
/// column, or the number that does not fit after its line.
pub fn parse(src: &str) -> Result<Table, String> {
    let doc = DeTable::parse(src).map_err(|e| {
        let message = e.message().lines().next().unwrap_or("").trim().to_string();
        match e.span() {
            Some(r) => {
                let (line, column) = position(src, r.start);
                format!("line {line}, column {column}: {message}")
            }
            None => message,
        }
    })?;
    table(doc.get_ref(), src)
}

/// 1-based line and column (in characters) of a byte offset.
fn position(src: &str, at: usize) -> (usize, usize) {
    let at = at.min(src.len());
    let before = src.get(..at).unwrap_or(src);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

fn table(t: &DeTable<'_>, src: &str) -> Result<Table, String> {
    t.iter()
        .map(|(k, v)| Ok((k.get_ref().to_string(), value(v, src)?)))
        .collect()
}

fn value(sv: &Spanned<DeValue<'_>>, src: &str) -> Result<Tv, String> {
    let line = || position(src, sv.span().start).0;
    Ok(match sv.get_ref() {
        DeValue::String(s) => Tv::String(s.to_string()),
        DeValue::Integer(i) => Tv::Integer(
            i64::from_str_radix(i.as_str(), i.radix())
                .map_err(|_| format!("line {}: the integer {i} does not fit in 64 bits", line()))?,
        ),
        DeValue::Float(f) => match f.as_str().parse::<f64>() {
            Ok(x) if x.is_finite() || f.as_str().contains("inf") || x.is_nan() => Tv::Float(x),
            _ => {
                return Err(format!(
                    "line {}: the float {} does not fit in 64 bits",
                    line(),
                    f.as_str()
                ))
            }
        },
        DeValue::Boolean(b) => Tv::Boolean(*b),
        DeValue::Datetime(_) => Tv::Datetime,
        DeValue::Array(a) => Tv::Array(a.iter().map(|x| value(x, src)).collect::<Result<_, _>>()?),
        DeValue::Table(t) => Tv::Table(table(t, src)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_type_keep_the_files_order() {
        let t = parse(
            "b = 0x10\na = 1_000\n[z]\ns = \"x\"\nf = 2.5\nt = true\nd = 1979-05-27\n\
             arr = [1, -2, 3]\n[z.inner]\nk = 'v'\n",
        )
        .unwrap();
        assert_eq!(t[0], ("b".to_string(), Tv::Integer(16)));
        assert_eq!(t[1], ("a".to_string(), Tv::Integer(1000)));
        let z = t[2].1.as_table().unwrap();
        let names: Vec<&str> = z.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["s", "f", "t", "d", "arr", "inner"]);
        assert_eq!(z[0].1.as_str(), Some("x"));
        assert_eq!(z[1].1, Tv::Float(2.5));
        assert_eq!(z[2].1, Tv::Boolean(true));
        assert_eq!(z[3].1, Tv::Datetime);
        assert_eq!(
            z[4].1,
            Tv::Array(vec![Tv::Integer(1), Tv::Integer(-2), Tv::Integer(3)])
        );
        assert_eq!(z[5].1.as_table().unwrap()[0].1.as_str(), Some("v"));
    }

    #[test]
    fn bad_documents_are_errors_with_a_place_or_the_number() {
        let e = parse("a = 1\na = 2\n").unwrap_err();
        assert!(e.contains("duplicate key"), "{e}");
        assert!(e.contains("line 2"), "{e}");
        let e = parse("a = \n").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        let e = parse("a = 9223372036854775808\n").unwrap_err();
        assert!(e.contains("does not fit in 64 bits"), "{e}");
        assert_eq!(
            parse("a = -9223372036854775808\n").unwrap()[0].1,
            Tv::Integer(i64::MIN)
        );
        let e = parse("a = 1e999\n").unwrap_err();
        assert!(e.contains("does not fit in 64 bits"), "{e}");
        assert_eq!(
            parse("a = -inf\n").unwrap()[0].1,
            Tv::Float(f64::NEG_INFINITY)
        );
    }
}
