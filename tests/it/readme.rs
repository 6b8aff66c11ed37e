//! The README's commands, run as a new user types them, so that the README cannot drift from
//! the binary.
//!
//! Every fenced block tagged `sh` in `README.md` is run, in order, by `bash -euo pipefail` in
//! one empty temporary folder, with the `expanse` binary of this build first on `PATH`. Blocks
//! that cannot run as written here (the Slurm job array and what follows it) are tagged `bash`
//! instead. Two lines are translated, because this test is itself run by them:
//! `cargo run --release -- ARGS` runs `expanse ARGS` (the same program, this build's profile),
//! and `cargo test --workspace` is skipped (it is the command running this test; the test
//! checks that `.ci/run` runs exactly it).

use std::path::{Path, PathBuf};
use std::process::Command;

const DEMO_COMMAND: &str = "cargo run --release -- demo";
const TEST_COMMAND: &str = "cargo test --workspace";

fn repo_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced code blocks of a Markdown text: (info string, body).
fn fenced_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in markdown.lines() {
        match open.take() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some((info.trim().to_string(), String::new()));
                }
            }
            Some((info, mut body)) => {
                if line.trim_end() == "```" {
                    blocks.push((info, body));
                } else {
                    body.push_str(line);
                    body.push('\n');
                    open = Some((info, body));
                }
            }
        }
    }
    assert!(open.is_none(), "README.md: a fenced block is not closed");
    blocks
}

/// The script this test runs for one `sh` block: the two translations of the module doc, and
/// the number of `expanse` commands it holds.
fn script_of(body: &str) -> (String, usize) {
    let mut script = String::new();
    let mut commands = 0;
    for line in body.lines() {
        let trimmed = line.trim_start();
        if trimmed == TEST_COMMAND {
            script.push_str("# (cargo test --workspace: the command running this test)\n");
            continue;
        }
        let line = match trimmed.strip_prefix("cargo run --release -- ") {
            Some(args) => format!("expanse {args}"),
            None => line.to_string(),
        };
        if line.trim_start().starts_with("expanse ") {
            commands += 1;
        }
        script.push_str(&line);
        script.push('\n');
    }
    (script, commands)
}

#[test]
fn readme_gives_the_two_commands_and_ci_runs_the_test_command() {
    let readme = repo_file("README.md");
    let blocks = fenced_blocks(&readme);
    let two = readme
        .split("## Two commands")
        .nth(1)
        .expect("README.md has a '## Two commands' section");
    let two = two.split("\n## ").next().unwrap_or(two);
    let bodies: Vec<String> = fenced_blocks(two)
        .into_iter()
        .filter(|(info, _)| info == "sh")
        .map(|(_, b)| b.trim().to_string())
        .collect();
    assert_eq!(
        bodies,
        [DEMO_COMMAND, TEST_COMMAND],
        "the 'Two commands' section must give exactly the demo and the test command"
    );
    assert!(blocks.iter().any(|(i, _)| i == "sh"));
    // CI runs the README's test command, as a line of its own.
    let ci = repo_file(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == TEST_COMMAND)
            || ci
                .lines()
                .any(|l| l.contains(&format!("\"{TEST_COMMAND}\""))),
        ".ci/run does not run `{TEST_COMMAND}`:\n{ci}"
    );
}

#[test]
fn readme_sh_blocks_run_verbatim_in_an_empty_folder() {
    let readme = repo_file("README.md");
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_expanse"));
    let bin_dir = exe.parent().expect("binary has a folder").to_path_buf();
    let work =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut total_commands = 0;
    for (k, (info, body)) in fenced_blocks(&readme).into_iter().enumerate() {
        if info != "sh" {
            continue;
        }
        let (script, commands) = script_of(&body);
        total_commands += commands;
        let started = std::time::Instant::now();
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", &script])
            .current_dir(&work)
            .env("PATH", &path)
            .output()
            .expect("bash runs");
        eprintln!(
            "README block {k}: {commands} expanse command(s) in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        assert!(
            out.status.success(),
            "README block {k} failed ({}):\n{script}\n--- stdout\n{}\n--- stderr\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The demo and the whole pipeline (search, prove ×2, verify, bench, report, orbit).
    assert!(
        total_commands >= 8,
        "only {total_commands} expanse commands found in the README's sh blocks"
    );
    // What the pipeline promises to leave behind.
    for f in [
        "out/demo/report/index.md",
        "runs/cands.jsonl",
        "runs/report/index.md",
        "runs/fig1a.png",
    ] {
        assert!(work.join(f).exists(), "{f} was not written");
    }
    // No lock file stays behind a finished search.
    assert!(!work.join("runs/cands.jsonl.lock").exists());
    let _ = std::fs::remove_dir_all(&work);
}
