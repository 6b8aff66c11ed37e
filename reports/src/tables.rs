//! Tables for papers: certificates as Markdown and as LaTeX (booktabs), and a per-period
//! summary of candidates.
//!
//! Interval columns are printed rounded outward (lower endpoint down, upper endpoint up; see
//! [`crate::num::fmt_interval`]), so each printed interval contains the certified one. A point
//! parameter is printed with 17 significant digits, which identifies the binary value used
//! (e.g. b = 0.3 as f64 prints as 0.29999999999999999).

use crate::input::{Candidate, Certificate, Status};
use crate::num::{fmt_directed, fmt_interval, Interval};
use rug::float::Round;
use std::collections::BTreeMap;

/// Significant digits for parameter values and boxes.
pub const PARAM_DIGITS: usize = 17;
/// Significant digits for trace and determinant enclosures.
pub const TRACE_DIGITS: usize = 8;

/// One row of the certificate table, as text cells (shared by both formats).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// a (point or outward box).
    pub a: String,
    /// b (point or outward box).
    pub b: String,
    /// Period.
    pub period: u64,
    /// Trace enclosure, or "—".
    pub trace: String,
    /// Determinant enclosure, or "—".
    pub det: String,
    /// Precision used.
    pub precision: String,
    /// Status.
    pub status: Status,
}

fn param(i: &Interval) -> String {
    if i.is_point() {
        fmt_directed(&i.lo, PARAM_DIGITS, Round::Nearest)
    } else {
        fmt_interval(i, PARAM_DIGITS)
    }
}

/// Certificates in table order: sinks first, then by period, then by a.
pub fn sorted(certs: &[Certificate]) -> Vec<&Certificate> {
    let mut v: Vec<&Certificate> = certs.iter().collect();
    v.sort_by(|x, y| {
        (x.status, x.period).cmp(&(y.status, y.period)).then(
            x.a.lo
                .partial_cmp(&y.a.lo)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    v
}

/// The text cells of each certificate, in table order.
pub fn rows(certs: &[Certificate]) -> Vec<Row> {
    sorted(certs)
        .into_iter()
        .map(|c| Row {
            a: param(&c.a),
            b: param(&c.b),
            period: c.period,
            trace: c
                .trace
                .as_ref()
                .map(|t| fmt_interval(t, TRACE_DIGITS))
                .unwrap_or_else(|| "—".into()),
            det: c
                .det
                .as_ref()
                .map(|t| fmt_interval(t, TRACE_DIGITS))
                .unwrap_or_else(|| "—".into()),
            precision: if c.precision.is_empty() {
                "—".into()
            } else {
                c.precision.clone()
            },
            status: c.status,
        })
        .collect()
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The certificates as a Markdown table.
pub fn certificates_markdown(certs: &[Certificate]) -> String {
    let mut s = String::new();
    s.push_str("| # | a | b | period | tr Dh^p (enclosure) | det Dh^p (enclosure) | precision | status |\n");
    s.push_str("|---:|---|---|---:|---|---|---|---|\n");
    for (i, r) in rows(certs).iter().enumerate() {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            i + 1,
            md_escape(&r.a),
            md_escape(&r.b),
            r.period,
            md_escape(&r.trace),
            md_escape(&r.det),
            md_escape(&r.precision),
            r.status.as_str()
        ));
    }
    s.push_str(
        "\nIntervals are rounded outward, so each contains the certified enclosure; a point \
         parameter is printed with 17 significant digits (the binary value used).\n",
    );
    s
}

/// Escapes LaTeX's special characters in running text.
pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '—' => out.push_str("---"),
            _ => out.push(c),
        }
    }
    out
}

/// A number or interval cell in LaTeX math: `1.5e-7` becomes `1.5\cdot 10^{-7}`.
fn latex_math(s: &str) -> String {
    if s == "—" {
        return "---".into();
    }
    let mut out = String::new();
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        if let Some(i) = token.find('e') {
            let (m, e) = token.split_at(i);
            out.push_str(&format!("{m}\\cdot 10^{{{}}}", &e[1..]));
        } else {
            out.push_str(token);
        }
        token.clear();
    };
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+' {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    format!("${out}$")
}

/// The certificates as a LaTeX table (needs `\usepackage{booktabs}`).
pub fn certificates_latex(certs: &[Certificate]) -> String {
    let mut s = String::new();
    s.push_str("% Generated by expanse report. Needs \\usepackage{booktabs}.\n");
    s.push_str("\\begin{table}[htbp]\n\\centering\n\\small\n");
    s.push_str("\\caption{Periodic orbits of the H\\'enon map with computer-assisted proofs. Intervals are rounded outward.}\n");
    s.push_str("\\label{tab:certificates}\n");
    s.push_str("\\begin{tabular}{rllrllll}\n\\toprule\n");
    s.push_str("\\# & $a$ & $b$ & $p$ & $\\operatorname{tr} Dh^p$ & $\\det Dh^p$ & precision & status \\\\\n\\midrule\n");
    for (i, r) in rows(certs).iter().enumerate() {
        s.push_str(&format!(
            "{} & {} & {} & {} & {} & {} & {} & {} \\\\\n",
            i + 1,
            latex_math(&r.a),
            latex_math(&r.b),
            r.period,
            latex_math(&r.trace),
            latex_math(&r.det),
            latex_escape(&r.precision),
            latex_escape(r.status.as_str())
        ));
    }
    s.push_str("\\bottomrule\n\\end{tabular}\n\\end{table}\n");
    s
}

/// Per period: number of candidates, how many the search estimated attracting, and the range
/// of a. Markdown.
pub fn candidates_summary_markdown(cands: &[Candidate]) -> String {
    let mut by: BTreeMap<u64, (usize, usize, f64, f64)> = BTreeMap::new();
    for c in cands {
        let e = by
            .entry(c.period)
            .or_insert((0, 0, f64::INFINITY, f64::NEG_INFINITY));
        e.0 += 1;
        e.1 += usize::from(c.attracting == Some(true));
        e.2 = e.2.min(c.a);
        e.3 = e.3.max(c.a);
    }
    let mut s = String::from("| period | candidates | estimated attracting | a from | a to |\n|---:|---:|---:|---|---|\n");
    for (p, (n, att, lo, hi)) in by {
        s.push_str(&format!("| {p} | {n} | {att} | {lo} | {hi} |\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_math_converts_exponents() {
        assert_eq!(latex_math("[-1.5e-7, 2]"), "$[-1.5\\cdot 10^{-7}, 2]$");
        assert_eq!(latex_escape("a_b & 5%"), "a\\_b \\& 5\\%");
    }
}
