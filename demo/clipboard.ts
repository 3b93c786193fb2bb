// Clipboard text as Sheets reads a paste over a cell: lines, tab-separated cells, quoted cells.

/**
 * Reads clipboard text as Sheets does: lines by line breaks, cells by tabs, a cell in double quotes
 * may hold tabs, line breaks and doubled quotes. One final line break ends the last line.
 */
export function parseClipboard(text: string): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let cell = '';
  let quoted = false;
  let cellStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text.charAt(i + 1) === '"') {
        cell += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '"' && cellStart) {
      quoted = true;
      cellStart = false;
    } else if (ch === '\t') {
      line.push(cell);
      cell = '';
      cellStart = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text.charAt(i + 1) === '\n') i++;
      line.push(cell);
      lines.push(line);
      line = [];
      cell = '';
      cellStart = true;
    } else {
      cell += ch;
      cellStart = false;
    }
  }
  if (cell !== '' || line.length > 0 || !cellStart) {
    line.push(cell);
    lines.push(line);
  }
  return lines;
}
