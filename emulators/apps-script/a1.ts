// A1 notation: column letters, cell and range references with optional sheet names.

export function columnToLetters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export function lettersToColumn(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A parsed A1 reference; open ends (`A:B`, `1:3`) are left undefined and resolved against the sheet. */
export interface A1Ref {
  sheetName?: string;
  row?: number;
  col?: number;
  endRow?: number;
  endCol?: number;
}

/** Parses `A1`, `A1:C3`, `A:C`, `2:5`, `Sheet1!A1:B2`, `'My sheet'!B:B`; returns undefined when invalid. */
export function parseA1(text: string): A1Ref | undefined {
  let rest = text.trim();
  let sheetName: string | undefined;
  const bang = rest.lastIndexOf('!');
  if (bang >= 0) {
    sheetName = rest.slice(0, bang);
    if (sheetName.startsWith("'") && sheetName.endsWith("'"))
      sheetName = sheetName.slice(1, -1).replace(/''/g, "'");
    rest = rest.slice(bang + 1);
  }
  const m = /^\$?([A-Za-z]{0,3})\$?(\d*)(?::\$?([A-Za-z]{0,3})\$?(\d*))?$/.exec(rest);
  if (!m || rest === '') return undefined;
  const [, c1 = '', r1 = '', c2, r2] = m;
  if (c1 === '' && r1 === '') return undefined;
  const ref: A1Ref = {};
  if (sheetName !== undefined) ref.sheetName = sheetName;
  if (c1) ref.col = lettersToColumn(c1);
  if (r1) ref.row = Number(r1);
  if (m[3] === undefined && m[4] === undefined) {
    if (!c1 || !r1) return undefined;
    ref.endRow = ref.row as number;
    ref.endCol = ref.col as number;
    return ref;
  }
  if (c2) ref.endCol = lettersToColumn(c2);
  if (r2) ref.endRow = Number(r2);
  if ((c1 === '') !== (c2 === '') || (r1 === '') !== (r2 === '')) {
    // Mixed forms like A1:B are allowed by Sheets (open-ended rows); accept when columns are given.
    if (!(c1 && c2)) return undefined;
  }
  return ref;
}
