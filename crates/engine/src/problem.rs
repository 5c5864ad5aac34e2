//! What is wrong with a file a user wrote (a scenario, a variant), each problem at its line and column: shared by
//! the scenario and the variant readers, so that neither needs the other to report.

use crate::geometry::Square;
use std::fmt;

/// One thing wrong with a file, with its place in the file where known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line, where known.
    pub line: Option<usize>,
    /// 1-based column, where known.
    pub column: Option<usize>,
    /// What is wrong, naming the square or unit concerned.
    pub message: String,
    /// The square concerned, where there is one on the board (for an editor to mark it).
    pub square: Option<Square>,
    /// The unit concerned: its index among the file's `[[units]]`, from 0.
    pub unit: Option<usize>,
}

/// A file's problems, one a line, as `file:line:col: message` (or `file: message` where the place is not known).
pub(crate) fn write_problems(f: &mut fmt::Formatter<'_>, file: &str, problems: &[Problem]) -> fmt::Result {
    for (i, p) in problems.iter().enumerate() {
        if i > 0 {
            writeln!(f)?;
        }
        match (p.line, p.column) {
            (Some(l), Some(c)) => write!(f, "{file}:{l}:{c}: {}", p.message)?,
            _ => write!(f, "{file}: {}", p.message)?,
        }
    }
    Ok(())
}

/// The line and column (from 1, in characters) of a byte offset. An offset inside a character (from a string with
/// escapes, whose value is shorter than its literal) counts as that character's start: never a panic.
pub(crate) fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(source.len());
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    let before = &source[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The known word nearest a misspelt one, if one is near enough to be what was meant (at most two edits, or a third
/// of its length for a long word): the "did you mean" of every reader's messages.
pub(crate) fn nearest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::levenshtein(k, word), *k))
        .filter(|(distance, k)| *distance <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}
