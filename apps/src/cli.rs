//! The command line shared by the application examples: `--quick`, `--json`, `--help`, and a
//! minimal JSON writer for `{"application": …, "passed": …, "results": [{"name", "value"}]}`.
//!
//! The examples stay thin: they parse with [`parse_args`], call the application, print what
//! [`Report`] renders, and exit with [`Report::exit_code`] (0 checked, 1 check failed; 2 for a
//! usage error, which [`parse_args`] reports with a message naming the flag).

/// Flags of an application example.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Small sizes: finishes in under a minute on 2 cores, still checked.
    pub quick: bool,
    /// Print one JSON object instead of the text report.
    pub json: bool,
    /// Print the help text and exit 0.
    pub help: bool,
    /// `--backend auto|cpu|gpu` (default auto): where the applications with a GPU version run.
    pub backend: BackendChoice,
}

/// Where an application runs (`--backend`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BackendChoice {
    /// The GPU when one is usable, otherwise all CPU cores (saying why on stderr).
    #[default]
    Auto,
    /// All CPU cores only.
    Cpu,
    /// The GPU; an error when none is usable.
    Gpu,
}

impl std::str::FromStr for BackendChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(BackendChoice::Auto),
            "cpu" => Ok(BackendChoice::Cpu),
            "gpu" => Ok(BackendChoice::Gpu),
            other => Err(format!("--backend: '{other}' is not one of auto, cpu, gpu")),
        }
    }
}

/// The backend chosen for a run: the GPU context when one is used, and a line for stderr
/// (which GPU, or why the CPU is used).
pub struct SelectedBackend {
    /// The GPUs, when the run uses them.
    pub gpu: Option<expanse_gpu::GpuContext>,
    /// What to tell the user (stderr): the GPU used, or why `auto` fell back to the CPU.
    pub note: Option<String>,
}

/// Probes for a GPU as `--backend` asks: `cpu` never probes; `gpu` is an error (the message
/// says why) when no GPU is usable; `auto` falls back to the CPU with the reason in the note.
pub fn select_backend(choice: BackendChoice) -> Result<SelectedBackend, String> {
    match choice {
        BackendChoice::Cpu => Ok(SelectedBackend {
            gpu: None,
            note: None,
        }),
        BackendChoice::Gpu | BackendChoice::Auto => match expanse_gpu::GpuContext::probe() {
            Ok(ctx) => Ok(SelectedBackend {
                note: Some(format!("using the GPU: {}", ctx.describe())),
                gpu: Some(ctx),
            }),
            Err(u) if choice == BackendChoice::Gpu => {
                Err(format!("--backend gpu: no usable GPU: {}", u.reason))
            }
            Err(u) => Ok(SelectedBackend {
                gpu: None,
                note: Some(format!(
                    "no usable GPU ({}); falling back to all CPU cores ({} threads)",
                    u.reason,
                    rayon::current_num_threads()
                )),
            }),
        },
    }
}

/// Parses the arguments after the program name. Unknown flags and stray arguments are an
/// error whose message names them.
pub fn parse_args<I, S>(args: I) -> Result<Options, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut o = Options::default();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_ref() {
            "--backend" => {
                let v = args
                    .next()
                    .ok_or_else(|| "--backend needs a value: auto, cpu or gpu".to_string())?;
                o.backend = v.as_ref().parse()?;
            }
            b if b.starts_with("--backend=") => o.backend = b["--backend=".len()..].parse()?,
            "--quick" => o.quick = true,
            "--json" => o.json = true,
            "--help" | "-h" => o.help = true,
            other if other.starts_with('-') => {
                return Err(format!("unknown flag '{other}' (try --help)"))
            }
            other => return Err(format!("unexpected argument '{other}' (try --help)")),
        }
    }
    Ok(o)
}

/// The help text common to the examples, after a description of the application.
pub fn help_text(name: &str, what: &str) -> String {
    format!(
        "{name}: {what}\n\n\
         Usage: cargo run --release --example {name} -- [--quick] [--json]\n\n\
         Flags:\n  \
         --quick   small sizes (under a minute on 2 cores), still checked against the known answer\n  \
         --json    print one JSON object {{\"application\", \"passed\", \"results\": [{{\"name\", \"value\"}}]}}\n  \
         --backend auto|cpu|gpu   where the applications with a GPU version run (default auto)\n  \
         --help    this text\n\n\
         Runs on all CPU cores (rayon); fft, mandelbrot, md, summation and qrs also on the GPU when one is usable,\n\
         then the CPU version runs too and both results must be identical.\n\
         Exit status: 0 result agrees with the known answer, 1 it does not, 2 usage error.\n"
    )
}

/// Quotes a string for JSON.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What an application hands to its example: text lines, named results, the verdict.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The application's name (`summation`, `qrs`, `quadrature`).
    pub application: String,
    /// The human-readable report, one line per entry.
    pub lines: Vec<String>,
    /// Named values as decimal strings with all computed digits.
    pub results: Vec<(String, String)>,
    /// True when every check against the known answer passed.
    pub passed: bool,
}

impl Report {
    /// A new, passing, empty report.
    pub fn new(application: &str) -> Self {
        Report {
            application: application.to_string(),
            passed: true,
            ..Report::default()
        }
    }

    /// Adds a text line.
    pub fn line(&mut self, s: impl Into<String>) {
        self.lines.push(s.into());
    }

    /// Adds a named result.
    pub fn result(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.results.push((name.into(), value.into()));
    }

    /// Records a check; a failing one makes the report fail.
    pub fn check(&mut self, what: &str, ok: bool) {
        self.passed &= ok;
        self.lines.push(format!(
            "check {}: {what}",
            if ok { "passed" } else { "FAILED" }
        ));
    }

    /// The text report.
    pub fn text(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s.push_str(if self.passed {
            "RESULT: agrees with the known answer\n"
        } else {
            "RESULT: does NOT agree with the known answer\n"
        });
        s
    }

    /// The JSON object.
    pub fn json(&self) -> String {
        let items: Vec<String> = self
            .results
            .iter()
            .map(|(n, v)| {
                format!(
                    "{{\"name\":{},\"value\":{}}}",
                    json_string(n),
                    json_string(v)
                )
            })
            .collect();
        format!(
            "{{\"application\":{},\"passed\":{},\"results\":[{}]}}",
            json_string(&self.application),
            self.passed,
            items.join(",")
        )
    }

    /// 0 when every check passed, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        if self.passed {
            0
        } else {
            1
        }
    }
}
