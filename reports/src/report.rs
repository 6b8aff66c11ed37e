//! A whole report: every figure and table that the inputs allow, written into one folder, with
//! an `index.md` that lists each file and says what it shows.

use crate::error::{Error, ErrorKind, Result};
use crate::figures::{self, OrbitFigure, ProofTimeFigure, RateFigure};
use crate::input::{Inputs, Status};
use crate::near::{self, Target};
use crate::orbit::classical_attractor;
use crate::tables;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// At most this many sink figures (one per period first, then more of the same periods).
pub const MAX_SINK_FIGURES: usize = 8;

/// One file of a report and what it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Path of the file.
    pub path: PathBuf,
    /// What it shows (one line).
    pub caption: String,
}

/// What a report wrote.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every file written (figures as PNG and SVG, tables, the index).
    pub entries: Vec<Entry>,
}

impl Report {
    /// Paths of all files written.
    pub fn files(&self) -> Vec<&Path> {
        self.entries.iter().map(|e| e.path.as_path()).collect()
    }
}

/// Writes `text` to `path` atomically (temporary file in the same folder, then rename).
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".tmp-{name}"));
    let io =
        |e: std::io::Error| Error::new(ErrorKind::Io, format!("cannot write: {e}")).at(path, None);
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

fn push_figure(rep: &mut Report, files: Vec<PathBuf>, caption: &str) {
    for f in files {
        rep.entries.push(Entry {
            path: f,
            caption: caption.to_string(),
        });
    }
}

/// Writes every figure and table the inputs allow into `out` (created if missing).
pub fn write_report(inputs: &Inputs, out: &Path) -> Result<Report> {
    write_report_near(inputs, out, None)
}

/// As [`write_report`], and with a target point also the ranking of certified sinks and of
/// candidates by their distance to it, and the figure of the plane around it
/// ([`crate::near`]).
pub fn write_report_near(inputs: &Inputs, out: &Path, target: Option<&Target>) -> Result<Report> {
    if inputs.is_empty() {
        return Err(Error::new(
            ErrorKind::Empty,
            "nothing to report: no candidate, certificate or benchmark record in the inputs",
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| {
        Error::new(ErrorKind::Io, format!("cannot create output folder: {e}")).at(out, None)
    })?;
    let mut rep = Report::default();
    let cands = &inputs.candidates;
    let certs = &inputs.certificates;

    // Tables.
    if !certs.is_empty() {
        let md = out.join("certificates.md");
        write_atomic(&md, &tables::certificates_markdown(certs))?;
        rep.entries.push(Entry {
            path: md,
            caption: "certificates: a, b, period, trace and determinant enclosures, precision, status (Markdown)".into(),
        });
        let tex = out.join("certificates.tex");
        write_atomic(&tex, &tables::certificates_latex(certs))?;
        rep.entries.push(Entry {
            path: tex,
            caption: "the same table in LaTeX (booktabs)".into(),
        });
    }
    if !cands.is_empty() {
        let md = out.join("candidates_summary.md");
        write_atomic(&md, &tables::candidates_summary_markdown(cands))?;
        rep.entries.push(Entry {
            path: md,
            caption:
                "candidates per period, with the search's attracting estimate and the range of a"
                    .into(),
        });
    }

    // Figures.
    let attractor = classical_attractor(10_000);
    let fig = OrbitFigure {
        points: attractor.clone(),
        title: "Hénon attractor, a = 1.4, b = 0.3".into(),
        label: "10 000 iterates after 1000 (f64)".into(),
    };
    push_figure(
        &mut rep,
        figures::render(&fig, &out.join("attractor"))?,
        "the classical Hénon attractor, 10 000 iterates in f64",
    );
    if !cands.is_empty() || !certs.is_empty() {
        let sinks = certs.iter().filter(|c| c.status == Status::Sink).count();
        let title = format!(
            "Parameter map: {} candidates, {} proved sinks",
            cands.len(),
            sinks
        );
        push_figure(
            &mut rep,
            figures::render(
                &figures::param_map(cands, certs, &title),
                &out.join("parameter_map"),
            )?,
            "parameter a against period: candidates (grey), certificates coloured by status",
        );
        // The a–b plane, when b takes more than one value. Values are compared to 12 decimals:
        // a certificate's box around the decimal 0.3 has a midpoint one ulp away from the
        // candidate's f64 0.3, and is the same b.
        let bs: BTreeSet<i64> = cands
            .iter()
            .map(|c| c.b)
            .chain(certs.iter().map(|c| c.b.mid_f64()))
            .map(|b| (b * 1e12).round() as i64)
            .collect();
        if bs.len() > 1 {
            push_figure(
                &mut rep,
                figures::render(
                    &figures::param_plane(cands, certs, "Parameter plane (a, b)"),
                    &out.join("parameter_plane"),
                )?,
                "parameters a and b: colour by period; hollow circle candidate, disc proved sink, cross proved unstable, triangle not proven",
            );
        }
        push_figure(
            &mut rep,
            figures::render(
                &figures::period_histogram(cands, certs, "Periods found"),
                &out.join("period_histogram"),
            )?,
            "histogram of periods: candidates and proved sinks",
        );
    }
    // One sink figure per period first, then others, up to MAX_SINK_FIGURES.
    let ordered = tables::sorted(certs);
    let sink_certs: Vec<_> = ordered
        .iter()
        .filter(|c| c.status == Status::Sink && !c.boxes.is_empty())
        .collect();
    let mut seen = BTreeSet::new();
    let mut chosen = Vec::new();
    for c in &sink_certs {
        if seen.insert(c.period) {
            chosen.push(**c);
        }
    }
    for c in &sink_certs {
        if chosen.len() >= MAX_SINK_FIGURES {
            break;
        }
        if !chosen.iter().any(|x| std::ptr::eq(*x, **c)) {
            chosen.push(**c);
        }
    }
    chosen.truncate(MAX_SINK_FIGURES);
    for (i, c) in chosen.iter().enumerate() {
        let fig = figures::sink_figure(c, attractor.clone());
        let stem = out.join(format!("sink_{}_period_{}", i + 1, c.period));
        push_figure(
            &mut rep,
            figures::render(&fig, &stem)?,
            &format!(
                "certified sink of period {} (box centres numbered in orbit order) over the Hénon attractor; from {}",
                c.period,
                c.source.display()
            ),
        );
    }
    if !inputs.rates.is_empty() {
        let fig = RateFigure {
            rates: inputs.rates.clone(),
            title: "Hénon iterations per second".into(),
        };
        push_figure(
            &mut rep,
            figures::render(&fig, &out.join("bench_rates"))?,
            "measured Hénon iterations per second by precision and backend (log scale)",
        );
    }
    if !inputs.proof_timings.is_empty() {
        let fig = ProofTimeFigure {
            timings: inputs.proof_timings.clone(),
            title: "Proof time against period".into(),
        };
        push_figure(
            &mut rep,
            figures::render(&fig, &out.join("proof_time"))?,
            "measured proof time against period (log-log)",
        );
    }

    // Near the target.
    if let Some(t) = target {
        let ranked = near::rank_sinks(certs, t);
        let md = out.join("closest_sinks.md");
        write_atomic(&md, &near::closest_sinks_markdown(&ranked, t))?;
        rep.entries.push(Entry {
            path: md,
            caption: format!(
                "certified sinks ranked by exact distance to ({}, {}) (Markdown)",
                t.text.0, t.text.1
            ),
        });
        let tex = out.join("closest_sinks.tex");
        write_atomic(&tex, &near::closest_sinks_latex(&ranked, t))?;
        rep.entries.push(Entry {
            path: tex,
            caption: "the same ranking in LaTeX (booktabs)".into(),
        });
        if !cands.is_empty() {
            let md = out.join("candidates_by_distance.md");
            write_atomic(
                &md,
                &near::candidates_by_distance_markdown(cands, t, near::CANDIDATE_ROWS),
            )?;
            rep.entries.push(Entry {
                path: md,
                caption: format!(
                    "candidates ranked by distance to ({}, {}): where window and continue can start",
                    t.text.0, t.text.1
                ),
            });
        }
        if let Some(fig) = near::near_target_figure(&ranked, &inputs.strips, t) {
            push_figure(
                &mut rep,
                figures::render(&fig, &out.join("near_target"))?,
                "the (a, b) plane around the target, offsets on equal axes: certified sinks (boxes to scale, numbered by rank), strips followed by `expanse continue` (centre line, dashed where extended along its tangent; edge circled), the record point and the target",
            );
        }
    }

    // Index.
    let mut index = String::from("# Expanse report\n\n| file | what it shows |\n|---|---|\n");
    for e in &rep.entries {
        let name = e
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        index.push_str(&format!(
            "| [{name}]({name}) | {} |\n",
            e.caption.replace('|', "\\|")
        ));
    }
    let idx = out.join("index.md");
    write_atomic(&idx, &index)?;
    rep.entries.push(Entry {
        path: idx,
        caption: "this list".into(),
    });
    Ok(rep)
}
