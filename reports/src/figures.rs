//! Figures, each written as PNG and SVG from one drawing routine.
//!
//! Sizes and fonts are chosen for a figure printed in one column of a paper (about 3.4 in
//! wide): the canvas is 900 px wide, so 28 px tick labels print at about 7.6 pt. Text is
//! rendered with DejaVu Sans embedded in the binary (the `dejavu` crate, through plotters'
//! `ab_glyph` feature), so no system font is needed; SVG files name the `sans-serif` family.

use crate::error::{Error, ErrorKind, Result};
use crate::input::{BenchRate, Candidate, Certificate, ProofTiming, Status};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Canvas size in pixels (PNG) and user units (SVG).
pub const SIZE: (u32, u32) = (900, 700);
const FONT: &str = "sans-serif";
const CAPTION_PX: u32 = 32;
pub(crate) const DESC_PX: u32 = 30;
pub(crate) const TICK_PX: u32 = 26;
pub(crate) const LEGEND_PX: u32 = 24;

static FONTS: Once = Once::new();

/// Registers the embedded DejaVu Sans (regular and bold) as `sans-serif`.
fn register_fonts() {
    FONTS.call_once(|| {
        // The bytes are a valid TrueType font shipped by the crate; failure would only mean
        // text is missing, which the figure tests detect (PNG size).
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

pub(crate) type DrawResult = std::result::Result<(), String>;

pub(crate) fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// Something that can draw itself on any plotters backend.
pub trait Figure {
    /// Draws the figure on `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult;
}

/// Draws `fig` to `stem.png` and `stem.svg`; returns the two paths. Each file is drawn under a
/// temporary name in the same folder and then renamed, so a reader never sees half a figure.
pub fn render<F: Figure>(fig: &F, stem: &Path) -> Result<Vec<PathBuf>> {
    register_fonts();
    let dir = stem.parent().unwrap_or(Path::new("."));
    let name = stem
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "figure".into());
    let png = dir.join(format!("{name}.png"));
    let svg = dir.join(format!("{name}.svg"));
    let png_tmp = dir.join(format!(".tmp-{name}.png"));
    let svg_tmp = dir.join(format!(".tmp-{name}.svg"));
    let plot_err = |p: &Path, e: String| Error::new(ErrorKind::Plot, e).at(p, None);
    {
        let root = BitMapBackend::new(&png_tmp, SIZE).into_drawing_area();
        fig.draw(&root).map_err(|e| plot_err(&png, e))?;
        root.present().map_err(|e| plot_err(&png, err(e)))?;
    }
    {
        let root = SVGBackend::new(&svg_tmp, SIZE).into_drawing_area();
        fig.draw(&root).map_err(|e| plot_err(&svg, e))?;
        root.present().map_err(|e| plot_err(&svg, err(e)))?;
    }
    for (t, f) in [(&png_tmp, &png), (&svg_tmp, &svg)] {
        std::fs::rename(t, f)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot write: {e}")).at(f, None))?;
    }
    Ok(vec![png, svg])
}

pub(crate) fn caption_font() -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT), CAPTION_PX as f64, FontStyle::Bold)
}
pub(crate) fn font(px: u32) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT), px as f64, FontStyle::Normal)
}

/// A padded range around data values (never empty).
fn padded(lo: f64, hi: f64, frac: f64) -> (f64, f64) {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    let w = hi - lo;
    let pad = if w > 0.0 {
        w * frac
    } else {
        lo.abs().max(1.0) * 0.05
    };
    (lo - pad, hi + pad)
}

fn bounds(points: impl Iterator<Item = (f64, f64)>) -> (f64, f64, f64, f64) {
    let mut b = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for (x, y) in points.filter(|(x, y)| x.is_finite() && y.is_finite()) {
        b.0 = b.0.min(x);
        b.1 = b.1.max(x);
        b.2 = b.2.min(y);
        b.3 = b.3.max(y);
    }
    b
}

/// Tick label without trailing noise; values below 10⁻⁹ of the axis span print as 0 (plotters
/// places ticks at multiples computed in floating point, e.g. −5.55e−17 for 0).
pub(crate) fn tick(v: f64, span: f64) -> String {
    if v == 0.0 || v.abs() < span.abs() * 1e-9 {
        return "0".into();
    }
    let a = v.abs();
    if (1e-3..1e5).contains(&a) {
        let s = format!("{v:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
        if s == "-0" {
            "0".into()
        } else {
            s
        }
    } else {
        let s = format!("{v:.2e}");
        match s.split_once('e') {
            Some((m, e)) if m.contains('.') => {
                format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.'))
            }
            _ => s,
        }
    }
}

/// Colour for a proof status.
pub fn status_colour(s: Status) -> RGBColor {
    match s {
        Status::Sink => RGBColor(0, 128, 60),
        Status::PeriodicUnstable => RGBColor(200, 30, 30),
        Status::NotProven => RGBColor(230, 140, 0),
    }
}

/// Points of one orbit (the attractor, or an orbit that has settled on a sink).
pub struct OrbitFigure {
    /// Points to draw.
    pub points: Vec<(f64, f64)>,
    /// Title.
    pub title: String,
    /// Legend text for the points.
    pub label: String,
}

impl Figure for OrbitFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let (x0, x1, y0, y1) = bounds(self.points.iter().copied());
        let (x0, x1) = padded(x0, x1, 0.05);
        let (y0, y1) = padded(y0, y1, 0.12);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(100)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x (dimensionless)")
            .y_desc("y (dimensionless)")
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|v| tick(*v, x1 - x0))
            .y_label_formatter(&|v| tick(*v, y1 - y0))
            .draw()
            .map_err(err)?;
        // Few distinct points (a periodic orbit) are drawn larger so they stay visible.
        let distinct = distinct_count(&self.points, 64);
        let r = if distinct < 64 { 5 } else { 1 };
        chart
            .draw_series(
                self.points
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), r, BLACK.filled())),
            )
            .map_err(err)?
            .label(&self.label)
            .legend(|(x, y)| Circle::new((x, y), 5, BLACK.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}

/// Number of distinct points (rounded to 1e-9), counting at most `cap`.
fn distinct_count(points: &[(f64, f64)], cap: usize) -> usize {
    let mut set = BTreeSet::new();
    for &(x, y) in points {
        set.insert(((x * 1e9).round() as i64, (y * 1e9).round() as i64));
        if set.len() >= cap {
            break;
        }
    }
    set.len()
}

/// A certified sink (centres of its orbit boxes, numbered in orbit order) over the classical
/// Hénon attractor.
pub struct SinkFigure {
    /// Backdrop points (the attractor at a = 1.4, b = 0.3).
    pub backdrop: Vec<(f64, f64)>,
    /// Orbit box centres z_0 … z_{p−1}.
    pub orbit: Vec<(f64, f64)>,
    /// Largest box width (for the legend).
    pub max_width: f64,
    /// Title.
    pub title: String,
    /// Legend text for the orbit.
    pub label: String,
}

impl Figure for SinkFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let all = self.backdrop.iter().chain(self.orbit.iter()).copied();
        let (x0, x1, y0, y1) = bounds(all);
        let (x0, x1) = padded(x0, x1, 0.05);
        let (y0, y1) = padded(y0, y1, 0.18);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(100)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x (dimensionless)")
            .y_desc("y (dimensionless)")
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|v| tick(*v, x1 - x0))
            .y_label_formatter(&|v| tick(*v, y1 - y0))
            .draw()
            .map_err(err)?;
        let grey = RGBColor(150, 150, 150);
        chart
            .draw_series(
                self.backdrop
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 1, grey.filled())),
            )
            .map_err(err)?
            .label("Hénon attractor, a = 1.4, b = 0.3")
            .legend(move |(x, y)| Circle::new((x, y), 5, grey.filled()));
        let red = status_colour(Status::Sink);
        // No connecting path: plotters joins thick segments with mitres, and the sharp turns
        // of an orbit make those spikes; the numbers give the order.
        let label_every = (self.orbit.len() / 24).max(1);
        let lab_font = font(LEGEND_PX).color(&BLACK);
        // Labels of the first half of the orbit go above their point, of the second half below:
        // after a period doubling, z_i and z_{i+p/2} lie close together.
        let half = self.orbit.len().div_ceil(2);
        chart
            .draw_series(self.orbit.iter().enumerate().map(|(i, &(x, y))| {
                let text = if i % label_every == 0 {
                    format!("{i}")
                } else {
                    String::new()
                };
                let offset = if i < half { (8, -26) } else { (8, 4) };
                EmptyElement::at((x, y))
                    + Circle::new((0, 0), 6, red.filled())
                    + Text::new(text, offset, lab_font.clone())
            }))
            .map_err(err)?
            .label(&self.label)
            .legend(move |(x, y)| Circle::new((x, y), 6, red.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}

/// Parameter-space map: a on the x axis, period on the y axis; candidates in grey, each
/// certificate coloured and shaped by its status.
pub struct ParamMapFigure {
    /// Candidates (a, period).
    pub candidates: Vec<(f64, u64)>,
    /// Certificates (a, period, status).
    pub certificates: Vec<(f64, u64, Status)>,
    /// Title.
    pub title: String,
}

impl Figure for ParamMapFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let a_vals = self
            .candidates
            .iter()
            .map(|c| c.0)
            .chain(self.certificates.iter().map(|c| c.0));
        let p_vals = self
            .candidates
            .iter()
            .map(|c| c.1)
            .chain(self.certificates.iter().map(|c| c.1));
        let (amin, amax) = a_vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), a| {
            (l.min(a), h.max(a))
        });
        let pmax = p_vals.max().unwrap_or(1) as f64;
        // Very narrow windows (near the classical parameters they are ~1e-12 wide) are drawn
        // as offsets from a reference value so that tick labels stay readable.
        let a_ref = if amax - amin < 1e-6 * amin.abs().max(1.0) && amin.is_finite() {
            Some(amin)
        } else {
            None
        };
        let shift = a_ref.unwrap_or(0.0);
        let (x0, x1) = padded(amin - shift, amax - shift, 0.06);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(90)
            .build_cartesian_2d(x0..x1, 0f64..(pmax * 1.25 + 1.0))
            .map_err(err)?;
        let x_desc = match a_ref {
            Some(r) => format!("a − {r} (dimensionless)"),
            None => "parameter a (dimensionless)".into(),
        };
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .x_desc(x_desc)
            .y_desc("period p")
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_labels(6)
            .y_labels(8)
            .x_label_formatter(&|v| tick(*v, x1 - x0))
            .y_label_formatter(&|v| format!("{}", v.round() as i64))
            .draw()
            .map_err(err)?;
        let grey = RGBColor(120, 120, 120);
        if !self.candidates.is_empty() {
            chart
                .draw_series(
                    self.candidates
                        .iter()
                        .map(|&(a, p)| Circle::new((a - shift, p as f64), 9, grey.stroke_width(2))),
                )
                .map_err(err)?
                .label("candidate (search)")
                .legend(move |(x, y)| Circle::new((x, y), 7, grey.stroke_width(2)));
        }
        for status in [Status::Sink, Status::PeriodicUnstable, Status::NotProven] {
            let pts: Vec<(f64, f64)> = self
                .certificates
                .iter()
                .filter(|c| c.2 == status)
                .map(|c| (c.0 - shift, c.1 as f64))
                .collect();
            if pts.is_empty() {
                continue;
            }
            let col = status_colour(status);
            let label = match status {
                Status::Sink => "proved sink",
                Status::PeriodicUnstable => "proved periodic, unstable",
                Status::NotProven => "not proven",
            };
            match status {
                Status::Sink => {
                    chart
                        .draw_series(pts.iter().map(|&p| Circle::new(p, 6, col.filled())))
                        .map_err(err)?
                        .label(label)
                        .legend(move |(x, y)| Circle::new((x, y), 6, col.filled()));
                }
                Status::PeriodicUnstable => {
                    chart
                        .draw_series(pts.iter().map(|&p| Cross::new(p, 7, col.stroke_width(3))))
                        .map_err(err)?
                        .label(label)
                        .legend(move |(x, y)| Cross::new((x, y), 6, col.stroke_width(3)));
                }
                Status::NotProven => {
                    chart
                        .draw_series(pts.iter().map(|&p| TriangleMarker::new(p, 7, col.filled())))
                        .map_err(err)?
                        .label(label)
                        .legend(move |(x, y)| TriangleMarker::new((x, y), 6, col.filled()));
                }
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}

/// The i-th of ten categorical colours (cycling).
pub fn category_colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    PALETTE[i % PALETTE.len()]
}

/// Parameter plane: a on the x axis, b on the y axis; colour by period, shape by status
/// (hollow circle: candidate; filled disc: proved sink; cross: proved unstable; triangle: not
/// proven). Drawn when the inputs hold more than one value of b.
pub struct ParamPlaneFigure {
    /// Candidates (a, b, period).
    pub candidates: Vec<(f64, f64, u64)>,
    /// Certificates (a, b, period, status).
    pub certificates: Vec<(f64, f64, u64, Status)>,
    /// Title.
    pub title: String,
}

impl Figure for ParamPlaneFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let pts = self
            .candidates
            .iter()
            .map(|c| (c.0, c.1))
            .chain(self.certificates.iter().map(|c| (c.0, c.1)));
        let (x0, x1, y0, y1) = bounds(pts);
        let (x0, x1) = padded(x0, x1, 0.06);
        let (y0, y1) = padded(y0, y1, 0.1);
        // Room above the data for the legend (one line per period and status).
        let y1 = y1 + (y1 - y0) * 0.9;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(110)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .x_desc("parameter a (dimensionless)")
            .y_desc("parameter b (dimensionless)")
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|v| tick(*v, x1 - x0))
            .y_label_formatter(&|v| tick(*v, y1 - y0))
            .draw()
            .map_err(err)?;
        let periods: BTreeSet<u64> = self
            .candidates
            .iter()
            .map(|c| c.2)
            .chain(self.certificates.iter().map(|c| c.2))
            .collect();
        // Colours by rank among the periods present, so that no two periods share one (up to
        // ten periods).
        let rank: BTreeMap<u64, usize> = periods.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let colour = |p: u64| category_colour(rank.get(&p).copied().unwrap_or(0));
        // Legend: one entry per period (colour), drawn as a filled square.
        for p in periods.iter() {
            let col = colour(*p);
            chart
                .draw_series(
                    self.candidates
                        .iter()
                        .filter(|c| c.2 == *p)
                        .map(|c| Circle::new((c.0, c.1), 9, col.stroke_width(2))),
                )
                .map_err(err)?
                .label(format!("period {p}"))
                .legend(move |(x, y)| {
                    Rectangle::new([(x - 6, y - 6), (x + 6, y + 6)], col.filled())
                });
        }
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(err)?
            .label("ring: candidate")
            .legend(|(x, y)| Circle::new((x, y), 7, BLACK.stroke_width(2)));
        let statuses: BTreeSet<Status> = self.certificates.iter().map(|c| c.3).collect();
        for st in statuses {
            let (label, el): (&str, fn((i32, i32)) -> DynElement<'static, DB, (i32, i32)>) =
                match st {
                    Status::Sink => ("disc: proved sink", |(x, y)| {
                        Circle::new((x, y), 6, BLACK.filled()).into_dyn()
                    }),
                    Status::PeriodicUnstable => ("cross: proved unstable", |(x, y)| {
                        Cross::new((x, y), 6, BLACK.stroke_width(3)).into_dyn()
                    }),
                    Status::NotProven => ("triangle: not proven", |(x, y)| {
                        TriangleMarker::new((x, y), 6, BLACK.filled()).into_dyn()
                    }),
                };
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(err)?
                .label(label)
                .legend(el);
        }
        chart
            .draw_series(self.certificates.iter().map(|c| {
                let col = colour(c.2);
                let e: DynElement<DB, (f64, f64)> = match c.3 {
                    Status::Sink => Circle::new((c.0, c.1), 6, col.filled()).into_dyn(),
                    Status::PeriodicUnstable => {
                        Cross::new((c.0, c.1), 7, col.stroke_width(3)).into_dyn()
                    }
                    Status::NotProven => {
                        TriangleMarker::new((c.0, c.1), 7, col.filled()).into_dyn()
                    }
                };
                e
            }))
            .map_err(err)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperMiddle)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}

/// Builds the a–b plane from candidates and certificates.
pub fn param_plane(cands: &[Candidate], certs: &[Certificate], title: &str) -> ParamPlaneFigure {
    ParamPlaneFigure {
        candidates: cands.iter().map(|c| (c.a, c.b, c.period)).collect(),
        certificates: certs
            .iter()
            .map(|c| (c.a.mid_f64(), c.b.mid_f64(), c.period, c.status))
            .collect(),
        title: title.into(),
    }
}

/// Histogram of periods: candidates and proved sinks side by side.
pub struct PeriodHistogram {
    /// Period → number of candidates.
    pub candidates: BTreeMap<u64, usize>,
    /// Period → number of proved sinks.
    pub sinks: BTreeMap<u64, usize>,
    /// Title.
    pub title: String,
}

impl Figure for PeriodHistogram {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let periods: BTreeSet<u64> = self
            .candidates
            .keys()
            .chain(self.sinks.keys())
            .copied()
            .collect();
        let periods: Vec<u64> = periods.into_iter().collect();
        let n = periods.len().max(1);
        let ymax = self
            .candidates
            .values()
            .chain(self.sinks.values())
            .copied()
            .max()
            .unwrap_or(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(90)
            .build_cartesian_2d(-0.6f64..(n as f64 - 0.4), 0f64..(ymax * 1.35).max(1.0))
            .map_err(err)?;
        let labels = periods.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .x_desc("period p")
            .y_desc("number of orbits")
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_labels(n + 1)
            .x_label_formatter(&move |v| {
                let i = v.round();
                if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                    labels[i as usize].to_string()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-6 {
                    format!("{}", v.round() as i64)
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        let grey = RGBColor(150, 150, 150);
        let green = status_colour(Status::Sink);
        let series = [
            (&self.candidates, grey, -0.2, "candidates (search)"),
            (&self.sinks, green, 0.2, "proved sinks"),
        ];
        for (map, col, off, label) in series {
            if map.is_empty() {
                continue;
            }
            chart
                .draw_series(periods.iter().enumerate().filter_map(|(i, p)| {
                    let c = *map.get(p)? as f64;
                    let x = i as f64 + off;
                    Some(Rectangle::new(
                        [(x - 0.19, 0.0), (x + 0.19, c)],
                        col.filled(),
                    ))
                }))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x - 6, y - 6), (x + 6, y + 6)], col.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}

/// Throughput bars: iterations per second (log scale) by precision, one bar per backend.
pub struct RateFigure {
    /// Measurements.
    pub rates: Vec<BenchRate>,
    /// Title.
    pub title: String,
}

/// Sort key for precision labels: f64 < dd < td < qd < 5 < … < 8, others after.
fn prec_rank(p: &str) -> (usize, String) {
    let n = match p.to_ascii_lowercase().as_str() {
        "f64" | "1" | "double" => 1,
        "dd" | "2" => 2,
        "td" | "3" => 3,
        "qd" | "4" => 4,
        s => s
            .trim_end_matches("-double")
            .parse::<usize>()
            .unwrap_or(100),
    };
    (n, p.to_string())
}

const BACKEND_COLOURS: [RGBColor; 5] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
];

impl Figure for RateFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let mut precs: Vec<String> = self
            .rates
            .iter()
            .map(|r| r.precision.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        precs.sort_by_key(|p| prec_rank(p));
        let backends: Vec<String> = self
            .rates
            .iter()
            .map(|r| r.backend.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let (lo, hi) = self.rates.iter().fold((f64::INFINITY, 0f64), |(l, h), r| {
            (l.min(r.iters_per_s), h.max(r.iters_per_s))
        });
        let (lo, hi) = if lo.is_finite() && hi > 0.0 {
            (lo / 3.0, hi * 8.0)
        } else {
            (1.0, 10.0)
        };
        let n = precs.len().max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(110)
            .build_cartesian_2d(-0.6f64..(n as f64 - 0.4), (lo..hi).log_scale())
            .map_err(err)?;
        let labels = precs.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .x_desc("precision")
            .y_desc("Hénon iterations per second")
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_labels(n + 1)
            .x_label_formatter(&move |v| {
                let i = v.round();
                if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                    labels[i as usize].clone()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(err)?;
        let k = backends.len().max(1) as f64;
        let w = 0.8 / k;
        for (bi, backend) in backends.iter().enumerate() {
            let col = BACKEND_COLOURS[bi % BACKEND_COLOURS.len()];
            let bars: Vec<(usize, f64)> = self
                .rates
                .iter()
                .filter(|r| &r.backend == backend)
                .filter_map(|r| {
                    Some((precs.iter().position(|p| *p == r.precision)?, r.iters_per_s))
                })
                .collect();
            chart
                .draw_series(bars.iter().map(|&(i, v)| {
                    let x = i as f64 - 0.4 + w * bi as f64;
                    Rectangle::new([(x + 0.02, lo), (x + w - 0.02, v)], col.filled())
                }))
                .map_err(err)?
                .label(backend.clone())
                .legend(move |(x, y)| {
                    Rectangle::new([(x - 6, y - 6), (x + 6, y + 6)], col.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}

/// Proof time against period, log-log, one series per method label.
pub struct ProofTimeFigure {
    /// Timings.
    pub timings: Vec<ProofTiming>,
    /// Title.
    pub title: String,
}

impl Figure for ProofTimeFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let (p0, p1, t0, t1) = bounds(self.timings.iter().map(|t| (t.period as f64, t.seconds)));
        let (p0, p1) = if p0.is_finite() {
            (p0 / 1.5, p1 * 1.5)
        } else {
            (1.0, 10.0)
        };
        let (t0, t1) = if t0.is_finite() && t0 > 0.0 {
            (t0 / 3.0, t1 * 3.0)
        } else {
            (1e-3, 1.0)
        };
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, caption_font())
            .margin(18)
            .x_label_area_size(70)
            .y_label_area_size(110)
            .build_cartesian_2d((p0..p1).log_scale(), (t0..t1).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .x_desc("period p")
            .y_desc("proof time (s)")
            .axis_desc_style(font(DESC_PX))
            .label_style(font(TICK_PX))
            .x_label_formatter(&|v| tick(*v, 0.0))
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(err)?;
        let labels: BTreeSet<&str> = self.timings.iter().map(|t| t.label.as_str()).collect();
        for (i, label) in labels.into_iter().enumerate() {
            let col = BACKEND_COLOURS[i % BACKEND_COLOURS.len()];
            let mut pts: Vec<(f64, f64)> = self
                .timings
                .iter()
                .filter(|t| t.label == label)
                .map(|t| (t.period as f64, t.seconds))
                .collect();
            pts.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            chart
                .draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))
                .map_err(err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 6, col.filled())))
                .map_err(err)?
                .label(label.to_string())
                .legend(move |(x, y)| Circle::new((x, y), 6, col.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(font(LEGEND_PX))
            .draw()
            .map_err(err)?;
        Ok(())
    }
}

/// Builds the sink figure for one certificate.
pub fn sink_figure(cert: &Certificate, backdrop: Vec<(f64, f64)>) -> SinkFigure {
    let orbit: Vec<(f64, f64)> = cert
        .boxes
        .iter()
        .map(|(x, y)| (x.mid_f64(), y.mid_f64()))
        .collect();
    let max_width = cert
        .boxes
        .iter()
        .map(|(x, y)| x.width_f64().max(y.width_f64()))
        .fold(0.0, f64::max);
    SinkFigure {
        backdrop,
        orbit,
        max_width,
        title: format!(
            "Sink of period {}, a ≈ {}, b ≈ {}",
            cert.period,
            short(cert.a.mid_f64()),
            short(cert.b.mid_f64())
        ),
        label: format!(
            "sink z₀…z{}, boxes ≤ {} wide",
            subscript(cert.period.saturating_sub(1)),
            one_digit_up(max_width)
        ),
    }
}

/// `w` rounded up to one significant digit (`2.4e-12` → `3e-12`), so "≤" stays true.
pub fn one_digit_up(w: f64) -> String {
    if !(w.is_finite() && w > 0.0) {
        return format!("{w}");
    }
    let mut e = w.log10().floor() as i32;
    let mut m = (w / 10f64.powi(e)).ceil();
    // Guard against the division rounding below the true quotient.
    while m * 10f64.powi(e) < w {
        m += 1.0;
    }
    if m >= 10.0 {
        m = 1.0;
        e += 1;
    }
    format!("{}e{}", m as u32, e)
}

/// At most 13 significant digits, trailing zeros dropped (1.399999486944 stays whole).
fn short(v: f64) -> String {
    let s = format!("{:.12e}", v);
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let m = m.trim_end_matches('0').trim_end_matches('.');
    let e: i32 = e.parse().unwrap_or(0);
    if (-4..6).contains(&e) {
        let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
        let neg = v < 0.0;
        let point = e + 1;
        let body = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}", digits, "0".repeat(point as usize - digits.len()))
        } else {
            format!(
                "{}.{}",
                &digits[..point as usize],
                &digits[point as usize..]
            )
        };
        format!("{}{}", if neg { "-" } else { "" }, body)
    } else {
        format!("{m}e{e}")
    }
}

fn subscript(n: u64) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c))
        .collect()
}

/// Builds the parameter map from candidates and certificates.
pub fn param_map(cands: &[Candidate], certs: &[Certificate], title: &str) -> ParamMapFigure {
    ParamMapFigure {
        candidates: cands.iter().map(|c| (c.a, c.period)).collect(),
        certificates: certs
            .iter()
            .map(|c| (c.a.mid_f64(), c.period, c.status))
            .collect(),
        title: title.into(),
    }
}

/// Builds the period histogram from candidates and certificates.
pub fn period_histogram(
    cands: &[Candidate],
    certs: &[Certificate],
    title: &str,
) -> PeriodHistogram {
    let mut candidates = BTreeMap::new();
    for c in cands {
        *candidates.entry(c.period).or_insert(0) += 1;
    }
    let mut sinks = BTreeMap::new();
    for c in certs.iter().filter(|c| c.status == Status::Sink) {
        *sinks.entry(c.period).or_insert(0) += 1;
    }
    PeriodHistogram {
        candidates,
        sinks,
        title: title.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_round_up() {
        assert_eq!(one_digit_up(2.4e-12), "3e-12");
        assert_eq!(one_digit_up(2e-10 * (1.0 + 1e-15)), "3e-10");
        assert_eq!(one_digit_up(9.5e-3), "1e-2");
        assert_eq!(one_digit_up(1.0), "1e0");
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(1.399999486944), "1.399999486944");
        assert_eq!(short(1.25), "1.25");
        assert_eq!(short(0.3), "0.3");
        assert_eq!(short(-0.000123), "-0.000123");
    }

    #[test]
    fn ticks_hide_rounding_noise() {
        assert_eq!(tick(-5.55e-17, 1.0), "0");
        assert_eq!(tick(0.25, 1.0), "0.25");
        assert_eq!(tick(3e-12, 1e-11), "3e-12");
        assert_eq!(tick(2.5e-13, 1e-11), "2.5e-13");
    }
}
