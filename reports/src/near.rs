//! The parameter plane near a target point (a*, b*), by default the classical (1.4, 0.3):
//! certified sinks ranked by their exact distance to it, candidates ranked the same way, and a
//! figure of the plane around it with each certified parameter box and each followed strip
//! drawn to scale.
//!
//! Distances are computed exactly: a certificate's parameter box [a.lo, a.hi] × [b.lo, b.hi]
//! has binary endpoints (exact rationals), the target is a decimal (an exact rational), so the
//! least and the largest distance from the target over the box are square roots of exact
//! rationals; they are printed rounded down and up respectively, so the printed least distance
//! is a true lower bound and the printed largest one a true upper bound. Certified sinks are
//! ranked by the least distance (every parameter of the box carries a sink, the nearest one
//! included), ties by the largest. Candidates are ranked by the distance of the binary
//! parameters the search ran with.
//!
//! Strips come from `expanse continue` (`expanse-continuation/1`: the centre line tr Dh^p = 0
//! that was followed, its estimated width, and its edge) and `expanse window`
//! (`expanse-window/1`: a certified segment of a line, from → to). In the figure both axes are
//! offsets from the target in the same units, so directions and lengths are true; a strip
//! 10⁻¹³ wide near (1.4, 0.3) is far thinner than a pixel at the scale of the distances
//! (10⁻⁸), and is drawn as its centre line, extended along its end tangents (dashed) to the
//! edges of the view.

use crate::error::{Error, ErrorKind, Result};
use crate::figures::{
    caption_font, category_colour, err, font, tick, DrawResult, Figure, DESC_PX, LEGEND_PX, TICK_PX,
};
use crate::input::{Candidate, Certificate, Status};
use crate::num::{fmt_directed, fmt_interval, Interval};
use crate::tables::{latex_escape, PARAM_DIGITS};
use plotters::coord::Shift;
use plotters::prelude::*;
use rug::float::Round;
use rug::ops::Pow;
use rug::{Float, Integer, Rational};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Seed 001's record: the parameters closest to (1.4, 0.3) with a sink known then.
pub const RECORD: (&str, &str) = ("1.4", "0.2999999774905");

/// The plot area of the figure in pixels (the 900 × 700 canvas less margins, caption and
/// label areas), for equal units per pixel on both axes.
const PLOT_W: f64 = 754.0;
const PLOT_H: f64 = 520.0;

/// Most rows of the candidates ranking.
pub const CANDIDATE_ROWS: usize = 200;

/// Significant digits of the distances in the tables.
pub const DISTANCE_DIGITS: usize = 12;

/// The schema of `expanse continue`'s JSON.
pub const CONTINUATION_SCHEMA: &str = "expanse-continuation/1";
/// The schema of `expanse window`'s JSON.
pub const WINDOW_SCHEMA: &str = "expanse-window/1";

/// An exact decimal (`1.4`, `-2.5e-8`) or a fraction (`-7/5`, as `expanse window` writes a
/// non-terminating value) as a rational; `None` if it is neither.
pub fn decimal_rational(s: &str) -> Option<Rational> {
    let t = s.trim();
    if let Some((n, d)) = t.split_once('/') {
        let n: Integer = n.trim().parse().ok()?;
        let d: Integer = d.trim().parse().ok()?;
        return (d != 0).then(|| Rational::from((n, d)));
    }
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
    if ip.is_empty() && fp.is_empty() || !ip.chars().chain(fp.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits: Integer = format!("0{ip}{fp}").parse().ok()?;
    let e = exp.checked_sub(fp.len() as i64)?;
    if e.abs() > 100_000 {
        return None;
    }
    let p = Integer::from(10).pow(e.unsigned_abs() as u32);
    let q = if e >= 0 {
        Rational::from(digits * p)
    } else {
        Rational::from((digits, p))
    };
    Some(if neg { -q } else { q })
}

/// The point the report measures distances from.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// a*, exact.
    pub a: Rational,
    /// b*, exact.
    pub b: Rational,
    /// As given.
    pub text: (String, String),
}

impl Target {
    /// Parses `A,B` (decimals).
    pub fn parse(s: &str) -> Result<Self> {
        let bad = |m: String| Error::new(ErrorKind::InvalidArgument, format!("target: {m}"));
        let (a, b) = s
            .split_once(',')
            .ok_or_else(|| bad(format!("{s:?} is not A,B")))?;
        let qa = decimal_rational(a).ok_or_else(|| bad(format!("{a:?} is not a decimal")))?;
        let qb = decimal_rational(b).ok_or_else(|| bad(format!("{b:?} is not a decimal")))?;
        Ok(Target {
            a: qa,
            b: qb,
            text: (a.trim().to_string(), b.trim().to_string()),
        })
    }

    /// The classical parameters (1.4, 0.3).
    pub fn classical() -> Self {
        Target {
            a: Rational::from((7, 5)),
            b: Rational::from((3, 10)),
            text: ("1.4".into(), "0.3".into()),
        }
    }

    /// Squared distance of (a, b) from the target, exactly.
    pub fn distance2(&self, a: &Rational, b: &Rational) -> Rational {
        let da = Rational::from(a - &self.a);
        let db = Rational::from(b - &self.b);
        Rational::from(da.square_ref()) + Rational::from(db.square_ref())
    }

    /// (least, largest) squared distance over the box [a.lo, a.hi] × [b.lo, b.hi], exactly.
    pub fn box_distance2(&self, a: &Interval, b: &Interval) -> Option<(Rational, Rational)> {
        let (alo, ahi) = (a.lo.to_rational()?, a.hi.to_rational()?);
        let (blo, bhi) = (b.lo.to_rational()?, b.hi.to_rational()?);
        let clamp = |lo: &Rational, hi: &Rational, c: &Rational| {
            if c < lo {
                lo.clone()
            } else if c > hi {
                hi.clone()
            } else {
                c.clone()
            }
        };
        let far = |lo: &Rational, hi: &Rational, c: &Rational| {
            if Rational::from(c - lo).abs() >= Rational::from(hi - c).abs() {
                lo.clone()
            } else {
                hi.clone()
            }
        };
        Some((
            self.distance2(&clamp(&alo, &ahi, &self.a), &clamp(&blo, &bhi, &self.b)),
            self.distance2(&far(&alo, &ahi, &self.a), &far(&blo, &bhi, &self.b)),
        ))
    }

    /// The offset (a − a*, b − b*) of an exact point, as f64 (for plotting).
    pub fn offset(&self, a: &Rational, b: &Rational) -> (f64, f64) {
        (
            Rational::from(a - &self.a).to_f64(),
            Rational::from(b - &self.b).to_f64(),
        )
    }
}

/// √q rounded in direction `r` to `digits` significant digits.
pub fn sqrt_directed(q: &Rational, digits: usize, r: Round) -> String {
    let bits = 4 * digits as u32 + 64;
    let (v, _) = Float::with_val_round(bits, q, r);
    let (s, _) = Float::with_val_round(bits, v.sqrt_ref(), r);
    fmt_directed(&s, digits, r)
}

/// A certified sink with its exact distances from the target.
#[derive(Clone, Debug)]
pub struct Ranked<'a> {
    /// The certificate.
    pub cert: &'a Certificate,
    /// Least squared distance over its parameter box.
    pub near2: Rational,
    /// Largest squared distance over its parameter box.
    pub far2: Rational,
}

/// The certificates of status `sink`, nearest first (least distance, then largest, then
/// period, then file).
pub fn rank_sinks<'a>(certs: &'a [Certificate], t: &Target) -> Vec<Ranked<'a>> {
    let mut v: Vec<Ranked> = certs
        .iter()
        .filter(|c| c.status == Status::Sink)
        .filter_map(|c| {
            let (near2, far2) = t.box_distance2(&c.a, &c.b)?;
            Some(Ranked {
                cert: c,
                near2,
                far2,
            })
        })
        .collect();
    v.sort_by(|x, y| {
        (&x.near2, &x.far2, x.cert.period, &x.cert.source).cmp(&(
            &y.near2,
            &y.far2,
            y.cert.period,
            &y.cert.source,
        ))
    });
    v
}

fn param_cell(i: &Interval) -> String {
    if i.is_point() {
        fmt_directed(&i.lo, PARAM_DIGITS, Round::Nearest)
    } else {
        fmt_interval(i, PARAM_DIGITS)
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

/// One row of the ranking, as text cells.
#[derive(Clone, Debug, PartialEq)]
pub struct RankRow {
    /// 1-based rank.
    pub rank: usize,
    /// Period.
    pub period: u64,
    /// a (point or outward box).
    pub a: String,
    /// b (point or outward box).
    pub b: String,
    /// Least distance over the box, rounded down.
    pub near: String,
    /// Largest distance over the box, rounded up.
    pub far: String,
    /// a − a* at the box's midpoint (6 digits).
    pub da: String,
    /// b − b* at the box's midpoint (6 digits).
    pub db: String,
    /// The certificate's file name.
    pub file: String,
}

/// The rows of the ranking table.
pub fn rank_rows(ranked: &[Ranked], t: &Target) -> Vec<RankRow> {
    ranked
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let c = r.cert;
            let mid = |iv: &Interval, c: &Rational| {
                let lo = iv.lo.to_rational().unwrap_or_default();
                let hi = iv.hi.to_rational().unwrap_or_default();
                let m = Rational::from(&lo + &hi) / 2u32 - c;
                fmt_directed(&Float::with_val(64, &m), 6, Round::Nearest)
            };
            RankRow {
                rank: i + 1,
                period: c.period,
                a: param_cell(&c.a),
                b: param_cell(&c.b),
                near: sqrt_directed(&r.near2, DISTANCE_DIGITS, Round::Down),
                far: sqrt_directed(&r.far2, DISTANCE_DIGITS, Round::Up),
                da: mid(&c.a, &t.a),
                db: mid(&c.b, &t.b),
                file: file_name(&c.source),
            }
        })
        .collect()
}

/// The ranking as Markdown.
pub fn closest_sinks_markdown(ranked: &[Ranked], t: &Target) -> String {
    let mut s = format!(
        "Certified sinks by distance to ({}, {})\n\n| rank | period | a | b | distance ≥ | distance ≤ | a − a* | b − b* | certificate |\n|---:|---:|---|---|---|---|---|---|---|\n",
        t.text.0, t.text.1
    );
    for r in rank_rows(ranked, t) {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.rank,
            r.period,
            r.a,
            r.b,
            r.near,
            r.far,
            r.da,
            r.db,
            r.file.replace('|', "\\|")
        ));
    }
    s.push_str(
        "\nDistance ≥: the least distance from the target over the certificate's parameter box, \
         computed exactly and rounded down; distance ≤: the largest, rounded up. Every \
         parameter of the box has a proved sink. Parameters are rounded outward (17 digits); \
         the offsets are those of the box midpoint (6 digits).\n",
    );
    s
}

fn latex_num(s: &str) -> String {
    let mut out = String::new();
    for tok in s.split_inclusive([' ', ',', '[', ']']) {
        let (body, sep) = match tok.char_indices().last() {
            Some((i, c)) if " ,[]".contains(c) => (&tok[..i], &tok[i..]),
            _ => (tok, ""),
        };
        match body.split_once('e') {
            Some((m, e)) => out.push_str(&format!("{m}\\cdot 10^{{{e}}}")),
            None => out.push_str(body),
        }
        out.push_str(sep);
    }
    format!("${out}$")
}

/// The ranking as a LaTeX table (needs `\usepackage{booktabs}`).
pub fn closest_sinks_latex(ranked: &[Ranked], t: &Target) -> String {
    let mut s = String::from("% Generated by expanse report. Needs \\usepackage{booktabs}.\n");
    s.push_str("\\begin{table}[htbp]\n\\centering\n\\small\n");
    s.push_str(&format!(
        "\\caption{{Certified sinks of the H\\'enon map by distance to $(a^*, b^*) = ({}, {})$: least and largest distance over each certified parameter box, exact, rounded outward.}}\n",
        latex_escape(&t.text.0),
        latex_escape(&t.text.1)
    ));
    s.push_str("\\label{tab:closest-sinks}\n\\begin{tabular}{rrllllll}\n\\toprule\n");
    s.push_str("\\# & $p$ & $a$ & $b$ & distance $\\ge$ & distance $\\le$ & $a - a^*$ & $b - b^*$ \\\\\n\\midrule\n");
    for r in rank_rows(ranked, t) {
        s.push_str(&format!(
            "{} & {} & {} & {} & {} & {} & {} & {} \\\\\n",
            r.rank,
            r.period,
            latex_num(&r.a),
            latex_num(&r.b),
            latex_num(&r.near),
            latex_num(&r.far),
            latex_num(&r.da),
            latex_num(&r.db)
        ));
    }
    s.push_str("\\bottomrule\n\\end{tabular}\n\\end{table}\n");
    s
}

/// Candidates nearest the target first (distance of the binary parameters searched), at most
/// `limit` rows, as Markdown: where `expanse window` and `expanse continue` (`--line N`) can
/// start.
pub fn candidates_by_distance_markdown(cands: &[Candidate], t: &Target, limit: usize) -> String {
    let mut v: Vec<(Rational, &Candidate)> = cands
        .iter()
        .filter_map(|c| {
            let a = Rational::from_f64(c.a)?;
            let b = Rational::from_f64(c.b)?;
            Some((t.distance2(&a, &b), c))
        })
        .collect();
    v.sort_by(|x, y| (&x.0, &x.1.source, x.1.line).cmp(&(&y.0, &y.1.source, y.1.line)));
    let mut s = format!(
        "Candidates by distance to ({}, {}) ({} of {})\n\n| rank | candidate | period | a | b | distance | trace estimate | attracting (estimate) |\n|---:|---|---:|---|---|---|---|---|\n",
        t.text.0,
        t.text.1,
        v.len().min(limit),
        v.len()
    );
    for (i, (d2, c)) in v.iter().take(limit).enumerate() {
        s.push_str(&format!(
            "| {} | {}:{} | {} | {} | {} | {} | {} | {} |\n",
            i + 1,
            file_name(&c.source).replace('|', "\\|"),
            c.line,
            c.period,
            c.a_text,
            c.b_text,
            sqrt_directed(d2, 6, Round::Nearest),
            c.trace_estimate
                .map(|x| format!("{x:.4}"))
                .unwrap_or_else(|| "—".into()),
            match c.attracting {
                Some(true) => "yes",
                Some(false) => "no",
                None => "—",
            }
        ));
    }
    s.push_str("\nA candidate's `file:line` is what `expanse continue FILE --line N` and `expanse window FILE --line N` take (`expanse continue FILE --line nearest` takes rank 1).\n");
    s
}

/// A followed strip or a certified segment, read from `expanse continue` or `expanse window`.
#[derive(Clone, Debug)]
pub struct Strip {
    /// Period of the sink.
    pub period: u64,
    /// Points of the strip's centre line (continuation) or the segment's two ends (window),
    /// exact.
    pub points: Vec<(Rational, Rational)>,
    /// The estimated edge of the strip nearest the target (continuation), exact decimal.
    pub edge: Option<(Rational, Rational)>,
    /// The strip's width across (estimate), as given.
    pub width: Option<String>,
    /// True for a continuation's centre line (an estimate); false for a certified segment.
    pub centre_line: bool,
    /// The file it came from.
    pub source: PathBuf,
}

/// True for a record of `expanse continue` or `expanse window` (read by [`parse_strip`]).
pub fn is_strip_record(v: &Value) -> bool {
    matches!(
        v.get("schema").and_then(Value::as_str),
        Some(CONTINUATION_SCHEMA) | Some(WINDOW_SCHEMA)
    )
}

/// Reads a strip from a continuation or window record; `Ok(None)` for other JSON and for a
/// window without a certified interval (nothing to draw).
pub fn parse_strip(v: &Value, source: &Path) -> Result<Option<Strip>> {
    let schema = v.get("schema").and_then(Value::as_str);
    let bad = |m: &str| Error::new(ErrorKind::Parse, m.to_string()).at(source, None);
    let pt = |p: &Value| -> Option<(Rational, Rational)> {
        Some((
            decimal_rational(p.get("a")?.as_str()?)?,
            decimal_rational(p.get("b")?.as_str()?)?,
        ))
    };
    let period = v.get("period").and_then(Value::as_u64).filter(|p| *p > 0);
    match schema {
        Some(CONTINUATION_SCHEMA) => {
            let period = period.ok_or_else(|| bad("field `period` must be a positive integer"))?;
            let points: Vec<(Rational, Rational)> = v
                .get("path")
                .and_then(Value::as_array)
                .ok_or_else(|| bad("missing field `path`"))?
                .iter()
                .map(pt)
                .collect::<Option<_>>()
                .ok_or_else(|| bad("`path` points need decimal strings `a` and `b`"))?;
            let edge = v.get("edge").and_then(|e| e.get("boundary")).and_then(&pt);
            let width = v
                .get("strip")
                .and_then(|s| s.get("width"))
                .and_then(Value::as_str)
                .map(str::to_string);
            Ok(Some(Strip {
                period,
                points,
                edge,
                width,
                centre_line: true,
                source: source.to_path_buf(),
            }))
        }
        Some(WINDOW_SCHEMA) => {
            let period = period.ok_or_else(|| bad("field `period` must be a positive integer"))?;
            let c = v.get("certified").filter(|c| !c.is_null());
            let Some(c) = c else {
                return Ok(None);
            };
            let (from, to) = (c.get("from").and_then(&pt), c.get("to").and_then(&pt));
            match (from, to) {
                (Some(f), Some(t)) => Ok(Some(Strip {
                    period,
                    points: vec![f, t],
                    edge: None,
                    width: None,
                    centre_line: false,
                    source: source.to_path_buf(),
                })),
                _ => Err(bad("`certified` needs decimal points `from` and `to`")),
            }
        }
        _ => Ok(None),
    }
}

/// A strip as drawn: (period, centre-line offsets, certified segment?, edge offset, width).
pub type StripItem = (
    u64,
    Vec<(f64, f64)>,
    bool,
    Option<(f64, f64)>,
    Option<String>,
);

/// The figure of the plane near the target.
pub struct NearTargetFigure {
    /// Target text, for the legend.
    pub target: (String, String),
    /// The record point's offset, when shown.
    pub record: Option<(f64, f64)>,
    /// Certified sinks: (rank, period, box offsets [a_lo, a_hi] × [b_lo, b_hi]).
    pub sinks: Vec<(usize, u64, [f64; 4])>,
    /// Strips: (period, centre-line offsets, certified segment?, edge offset, width text).
    pub strips: Vec<StripItem>,
    /// The nearest certified sink's distance (rounded down), for the connecting line.
    pub nearest: Option<((f64, f64), String)>,
    /// Half-widths of the view (x, y), equal units per pixel.
    pub view: (f64, f64),
    /// Title.
    pub title: String,
}

/// Builds the figure, or `None` when there is nothing near the target to draw. Shown: the
/// target, the record point when it lies within 10⁻⁶ of the target, every certified sink within
/// max(2 × the nearest one's distance, the record's distance), and the strips' points in that
/// radius.
pub fn near_target_figure(
    ranked: &[Ranked],
    strips: &[Strip],
    t: &Target,
) -> Option<NearTargetFigure> {
    let rec = (
        decimal_rational(RECORD.0).unwrap_or_default(),
        decimal_rational(RECORD.1).unwrap_or_default(),
    );
    let rec_d2 = t.distance2(&rec.0, &rec.1);
    let show_record = rec_d2 <= Rational::from((1, 1_000_000_000_000u64));
    let nearest_sink = ranked.first().map(|r| r.near2.to_f64().sqrt());
    let nearest_strip = strips
        .iter()
        .flat_map(|s| s.points.iter())
        .map(|p| t.distance2(&p.0, &p.1).to_f64().sqrt())
        .fold(f64::INFINITY, f64::min);
    let base = nearest_sink.unwrap_or(f64::INFINITY).min(nearest_strip);
    if !base.is_finite() {
        return None;
    }
    let mut radius = 2.0 * base;
    if show_record {
        radius = radius.max(rec_d2.to_f64().sqrt());
    }
    let radius = radius.max(f64::MIN_POSITIVE);
    let sinks: Vec<(usize, u64, [f64; 4])> = ranked
        .iter()
        .enumerate()
        .filter(|(_, r)| r.near2.to_f64().sqrt() <= radius)
        .filter_map(|(i, r)| {
            let c = r.cert;
            let lo = t.offset(&c.a.lo.to_rational()?, &c.b.lo.to_rational()?);
            let hi = t.offset(&c.a.hi.to_rational()?, &c.b.hi.to_rational()?);
            Some((i + 1, c.period, [lo.0, hi.0, lo.1, hi.1]))
        })
        .collect();
    let strip_items: Vec<StripItem> = strips
        .iter()
        .map(|s| {
            (
                s.period,
                s.points.iter().map(|p| t.offset(&p.0, &p.1)).collect(),
                !s.centre_line,
                s.edge.as_ref().map(|e| t.offset(&e.0, &e.1)),
                s.width.clone(),
            )
        })
        .collect();
    let nearest = ranked.first().and_then(|r| {
        let c = r.cert;
        let mid = |i: &Interval, v: &Rational| {
            let lo = i.lo.to_rational()?;
            let hi = i.hi.to_rational()?;
            Some((Rational::from(&lo + &hi) / 2u32 - v).to_f64())
        };
        Some((
            (mid(&c.a, &t.a)?, mid(&c.b, &t.b)?),
            sqrt_directed(&r.near2, 6, Round::Down),
        ))
    });
    // Extent: the shown items and the target, padded, then stretched to equal units per pixel.
    let mut ext = (0.0f64, 0.0f64);
    let mut grow = |p: (f64, f64)| {
        if p.0.hypot(p.1) <= radius * 1.0001 {
            ext.0 = ext.0.max(p.0.abs());
            ext.1 = ext.1.max(p.1.abs());
        }
    };
    if show_record {
        grow(t.offset(&rec.0, &rec.1));
    }
    for s in &sinks {
        grow(((s.2[0] + s.2[1]) / 2.0, (s.2[2] + s.2[3]) / 2.0));
    }
    for s in &strip_items {
        for p in &s.1 {
            grow(*p);
        }
    }
    let r = ext.0.max(ext.1).max(radius * 0.05) * 1.15;
    // Plot area of the 900 × 700 canvas after the margins and label areas.
    let aspect = PLOT_H / PLOT_W;
    let view = (r / aspect, r);
    Some(NearTargetFigure {
        target: t.text.clone(),
        record: show_record.then(|| t.offset(&rec.0, &rec.1)),
        sinks,
        strips: strip_items,
        nearest,
        view,
        title: format!("Near ({}, {}): certified sinks", t.text.0, t.text.1),
    })
}

/// The part of the segment p–q inside the box |x| ≤ vx, |y| ≤ vy (Liang–Barsky), if any:
/// plotters does not clip, it moves points outside the plot area onto its border.
fn clip(p: (f64, f64), q: (f64, f64), vx: f64, vy: f64) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (den, num) in [
        (-dx, p.0 + vx),
        (dx, vx - p.0),
        (-dy, p.1 + vy),
        (dy, vy - p.1),
    ] {
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let r = num / den;
            if den < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then_some((
        (p.0 + t0 * dx, p.1 + t0 * dy),
        (p.0 + t1 * dx, p.1 + t1 * dy),
    ))
}

/// The polyline `pts` cut to the box: its visible pieces.
fn clip_path(pts: &[(f64, f64)], vx: f64, vy: f64) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    for w in pts.windows(2) {
        if let Some((a, b)) = clip(w[0], w[1], vx, vy) {
            match out.last_mut() {
                Some(last) if last.last() == Some(&a) => last.push(b),
                _ => out.push(vec![a, b]),
            }
        }
    }
    out
}

/// Extends the polyline `pts` along its end directions to the box |x| ≤ vx, |y| ≤ vy (the
/// pieces inside it).
fn extend(pts: &[(f64, f64)], vx: f64, vy: f64) -> Vec<Vec<(f64, f64)>> {
    if pts.len() < 2 {
        return Vec::new();
    }
    let reach = 4.0 * vx.hypot(vy);
    let ray = |p: (f64, f64), q: (f64, f64)| {
        let (dx, dy) = (p.0 - q.0, p.1 - q.1);
        let n = dx.hypot(dy);
        if n == 0.0 {
            return None;
        }
        let far = (p.0 + dx / n * reach, p.1 + dy / n * reach);
        clip(p, far, vx, vy).map(|(a, b)| vec![a, b])
    };
    // The direction at an end: the chord to the first point at least a quarter of the whole
    // chord away (the last steps of a continuation can be tiny and mostly across the strip).
    let n = pts.len();
    let span = (pts[n - 1].0 - pts[0].0).hypot(pts[n - 1].1 - pts[0].1);
    let far_enough = |k: usize, from: usize| {
        (pts[k].0 - pts[from].0).hypot(pts[k].1 - pts[from].1) >= span / 4.0
    };
    let kb = (0..n - 1)
        .rev()
        .find(|&k| far_enough(k, n - 1))
        .unwrap_or(0);
    let kf = (1..n).find(|&k| far_enough(k, 0)).unwrap_or(n - 1);
    [ray(pts[n - 1], pts[kb]), ray(pts[0], pts[kf])]
        .into_iter()
        .flatten()
        .collect()
}

impl Figure for NearTargetFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let (vx, vy) = self.view;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(110)
            .build_cartesian_2d(-vx..vx, -vy..vy)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(230, 230, 230))
            .x_desc(format!("a − {} (dimensionless)", self.target.0))
            .y_desc(format!("b − {} (dimensionless)", self.target.1))
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_labels(5)
            .y_labels(5)
            .x_label_formatter(&|v| tick(*v, 2.0 * vx))
            .y_label_formatter(&|v| tick(*v, 2.0 * vy))
            .draw()
            .map_err(err)?;
        let periods: BTreeSet<u64> = self
            .sinks
            .iter()
            .map(|s| s.1)
            .chain(self.strips.iter().map(|s| s.0))
            .collect();
        let rank: BTreeMap<u64, usize> = periods.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let colour = |p: u64| category_colour(rank.get(&p).copied().unwrap_or(0));
        // Strips: centre lines (estimates) solid, their tangent extensions dashed, certified
        // segments thick.
        for (period, pts, certified, edge, width) in &self.strips {
            let col = colour(*period);
            let label = if *certified {
                format!("period {period}: certified segment (window)")
            } else {
                format!(
                    "period {period}: strip centre line tr = 0{}",
                    width
                        .as_ref()
                        .map(|w| format!(", width {w}"))
                        .unwrap_or_default()
                )
            };
            let width = if *certified { 5 } else { 3 };
            chart
                .draw_series(
                    clip_path(pts, vx, vy)
                        .into_iter()
                        .map(|piece| PathElement::new(piece, col.stroke_width(width))),
                )
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x - 12, y), (x + 12, y)], col.stroke_width(3))
                });
            if !*certified {
                for seg in extend(pts, vx, vy) {
                    chart
                        .draw_series(DashedLineSeries::new(
                            seg,
                            8,
                            6,
                            col.mix(0.7).stroke_width(2),
                        ))
                        .map_err(err)?;
                }
            }
            if let Some(e) = edge {
                chart
                    .draw_series(std::iter::once(Circle::new(*e, 7, col.stroke_width(2))))
                    .map_err(err)?;
            }
        }
        // Certified sinks: the box to scale (sub-pixel boxes show as their marker) and a disc;
        // ranks of markers closer than 14 px share one label.
        let px = 2.0 * vx / PLOT_W;
        let mut labels: Vec<((f64, f64), Vec<usize>)> = Vec::new();
        for (r, period, b) in &self.sinks {
            let col = colour(*period);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(b[0], b[2]), (b[1], b[3])],
                    col.stroke_width(2),
                )))
                .map_err(err)?;
            let c = ((b[0] + b[1]) / 2.0, (b[2] + b[3]) / 2.0);
            chart
                .draw_series(std::iter::once(Circle::new(c, 6, col.filled())))
                .map_err(err)?;
            match labels
                .iter_mut()
                .find(|(p, _)| (p.0 - c.0).hypot(p.1 - c.1) < 14.0 * px)
            {
                Some((_, ranks)) => ranks.push(*r),
                None => labels.push((c, vec![*r])),
            }
        }
        for (c, ranks) in labels {
            let text = ranks
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at(c) + Text::new(text, (10, -28), font(LEGEND_PX)),
                ))
                .map_err(err)?;
        }
        if !self.sinks.is_empty() {
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(err)?
                .label("certified sink (box to scale), rank in the table")
                .legend(|(x, y)| Circle::new((x, y), 6, BLACK.filled()));
        }
        // Periods whose colour no strip entry explains.
        for p in periods
            .iter()
            .filter(|p| !self.strips.iter().any(|s| s.0 == **p))
        {
            let col = colour(*p);
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(err)?
                .label(format!("period {p}"))
                .legend(move |(x, y)| Circle::new((x, y), 6, col.filled()));
        }
        if let Some((p, d)) = &self.nearest {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.0, 0.0), *p],
                    4,
                    4,
                    BLACK.stroke_width(1),
                ))
                .map_err(err)?
                .label(format!("nearest certified sink: distance ≥ {d}"))
                .legend(|(x, y)| {
                    PathElement::new(vec![(x - 12, y), (x + 12, y)], BLACK.stroke_width(1))
                });
        }
        if let Some(rp) = self.record {
            let grey = RGBColor(110, 110, 110);
            chart
                .draw_series(std::iter::once(TriangleMarker::new(rp, 9, grey.filled())))
                .map_err(err)?
                .label(format!("seed 001 record ({}, {})", RECORD.0, RECORD.1))
                .legend(move |(x, y)| TriangleMarker::new((x, y), 8, grey.filled()));
        }
        chart
            .draw_series(std::iter::once(Cross::new(
                (0.0, 0.0),
                10,
                BLACK.stroke_width(3),
            )))
            .map_err(err)?
            .label(format!("target ({}, {})", self.target.0, self.target.1))
            .legend(|(x, y)| Cross::new((x, y), 7, BLACK.stroke_width(3)));
        // The legend goes into the corner with the fewest drawn points.
        let mut pts: Vec<(f64, f64)> = self.sinks.iter().map(|s| (s.2[0], s.2[2])).collect();
        for (_, line, certified, _, _) in &self.strips {
            pts.extend(line.iter().copied());
            if !*certified {
                for seg in extend(line, vx, vy) {
                    for k in 0..=32 {
                        let f = k as f64 / 32.0;
                        pts.push((
                            seg[0].0 + f * (seg[1].0 - seg[0].0),
                            seg[0].1 + f * (seg[1].1 - seg[0].1),
                        ));
                    }
                }
            }
        }
        pts.extend(self.record);
        let corners = [
            (SeriesLabelPosition::UpperLeft, -1.0, 1.0),
            (SeriesLabelPosition::UpperRight, 1.0, 1.0),
            (SeriesLabelPosition::LowerLeft, -1.0, -1.0),
            (SeriesLabelPosition::LowerRight, 1.0, -1.0),
        ];
        let crowd = |sx: f64, sy: f64| {
            pts.iter()
                .filter(|p| p.0 * sx > 0.0 && p.1 * sy > vy * 0.25)
                .count()
        };
        let pos = corners
            .iter()
            .min_by_key(|(_, sx, sy)| crowd(*sx, *sy))
            .map(|c| c.0.clone())
            .unwrap_or(SeriesLabelPosition::UpperLeft);
        chart
            .configure_series_labels()
            .position(pos)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX - 4))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}
