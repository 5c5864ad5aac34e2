// Square names (R1.1): a column letter from `a` and a row number from 1, as `c4`. The one place the board, the
// battle page and the editor turn names into columns and rows (from 0) and back.

/// A square's name from its column and row (from 0).
export function squareName(x, y) {
  return String.fromCharCode(97 + x) + (y + 1);
}

/// A square's column and row (from 0) from its name.
export function parseSquare(name) {
  return { x: name.charCodeAt(0) - 97, y: parseInt(name.slice(1), 10) - 1 };
}
