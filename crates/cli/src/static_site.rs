//! `pacw static OUT_DIR --wasm FILE`: the static build, a folder of plain files any static web host serves, the
//! games played in the browser (pacw_server::offline). `scripts/static OUT_DIR` builds the WebAssembly module and
//! runs it.

use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The largest module `--wasm` takes: the release build is under 2 MiB.
const MAX_WASM: u64 = 64 * 1024 * 1024;

/// The arguments of `pacw static`.
#[derive(Args)]
#[command(after_help = "Example (the script builds the module first):\n  ./scripts/static site/\n  \
                        pacw static site/ --wasm target/wasm32-unknown-unknown/wasm/pacw_wasm.wasm")]
pub struct StaticArgs {
    /// The folder to write (made if missing; files of the same names are replaced).
    pub out: PathBuf,
    /// The engine built for the browser: `cargo build -p pacw-wasm --target wasm32-unknown-unknown --profile wasm`.
    #[arg(long)]
    pub wasm: PathBuf,
}

/// Writes the static build.
///
/// # Errors
/// When the module cannot be read, is not a WebAssembly module or is larger than 64 MiB, or a file cannot be
/// written.
pub fn run(args: StaticArgs) -> Result<ExitCode> {
    let size = std::fs::metadata(&args.wasm).with_context(|| format!("cannot read {}", args.wasm.display()))?.len();
    anyhow::ensure!(size <= MAX_WASM, "{} is {size} bytes: not pacw's module", args.wasm.display());
    let wasm = std::fs::read(&args.wasm).with_context(|| format!("cannot read {}", args.wasm.display()))?;
    anyhow::ensure!(wasm.starts_with(b"\0asm"), "{} is not a WebAssembly module", args.wasm.display());
    let written = pacw_server::offline::write_site(&args.out, &wasm)
        .with_context(|| format!("cannot write the static build to {}", args.out.display()))?;
    writeln!(
        std::io::stdout().lock(),
        "{} files written to {} ({} KiB of WebAssembly): serve the folder from any static web host, at its root or \
         in a folder of it",
        written.len(),
        args.out.display(),
        wasm.len() / 1024
    )?;
    Ok(ExitCode::SUCCESS)
}
