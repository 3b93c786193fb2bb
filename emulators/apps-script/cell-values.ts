// Cell value model: typed-input parsing (§1), display formatting, time-zone date math and a tiny formula evaluator.

/** A date/time stored in a cell (an instant). */
export class CellDate {
  constructor(readonly ms: number) {}
}

/** A formula stored in a cell; `text` includes the leading `=`. */
export class CellFormula {
  constructor(readonly text: string) {}
}

/** What a cell holds; `null` is blank. */
export type CellValue = string | number | boolean | CellDate | CellFormula | null;

/** The default number format of an unformatted cell (gas-fakes notes/oddities.md, §1). */
export const DEFAULT_NUMBER_FORMAT = '0.###############';
export const PLAIN_TEXT = '@';

/** Result of parsing one written value: the stored value plus the number format Sheets applies by itself. */
export interface ParsedInput {
  value: CellValue;
  autoFormat?: string;
}

const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const THOUSANDS_RE = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const CURRENCY_RE = /^([+-]?)\$((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)$/;
const PERCENT_RE = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))%$/;
const ISO_DATE_RE =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;
const US_DATE_RE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Parses a string the way Sheets parses text typed into an automatic-format cell (§1 table):
 * numbers (leading zeros dropped, exponent, sign, `%`, `$`, thousands), TRUE/FALSE, dates at midnight in
 * the spreadsheet time zone, `=` formulas, `+`/`-`/`@` text as failing formulas, `'` forcing text.
 * ISO timestamps with a `T` stay text (UNCONFIRMED; the stricter reading).
 */
export function parseTyped(input: string, timeZone: string): ParsedInput {
  if (input === '') return { value: null };
  const first = input.charCodeAt(0);
  // Fast path: text that cannot be anything else.
  const maybeSpecial =
    (first >= 48 && first <= 57) || "+-.$'=@tTfF".includes(input[0] as string) || input[0] === ' ';
  if (!maybeSpecial) return { value: input };
  if (input[0] === "'") return { value: input.slice(1) };
  if (input[0] === '=') return input.length > 1 ? { value: new CellFormula(input) } : { value: input };
  const s = input.trim();
  if (/^true$/i.test(s)) return { value: true };
  if (/^false$/i.test(s)) return { value: false };
  if (NUMBER_RE.test(s)) {
    const n = Number(s);
    if (/[eE]/.test(s)) return { value: n, autoFormat: '0.00E+00' };
    return { value: n };
  }
  if (THOUSANDS_RE.test(s))
    return { value: Number(s.replace(/,/g, '')), autoFormat: '#,##0' + decimalsOf(s) };
  let m = CURRENCY_RE.exec(s);
  if (m) {
    const n = Number((m[2] as string).replace(/,/g, ''));
    return { value: m[1] === '-' ? -n : n, autoFormat: '"$"#,##0.00' };
  }
  m = PERCENT_RE.exec(s);
  if (m) {
    const digits = (m[1] as string).split('.')[1]?.length ?? 0;
    return { value: Number(m[1]) / 100, autoFormat: digits ? '0.' + '0'.repeat(digits) + '%' : '0%' };
  }
  m = ISO_DATE_RE.exec(s);
  if (m) {
    const d = dateFromParts(
      m.slice(1).map((x) => (x === undefined ? 0 : Number(x))),
      timeZone,
    );
    if (d !== undefined)
      return { value: d, autoFormat: m[4] === undefined ? 'yyyy-mm-dd' : 'yyyy-mm-dd h:mm:ss' };
  }
  m = US_DATE_RE.exec(s);
  if (m) {
    const [mo, da, y, h, mi, se] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
    const d = dateFromParts([y ?? 0, mo ?? 0, da ?? 0, h ?? 0, mi ?? 0, se ?? 0, 0], timeZone);
    if (d !== undefined)
      return { value: d, autoFormat: m[4] === undefined ? 'm/d/yyyy' : 'm/d/yyyy h:mm:ss' };
  }
  m = TIME_RE.exec(s);
  if (m && Number(m[1]) < 24 && Number(m[2]) < 60) {
    // Sheets stores a bare time on its epoch day, 1899-12-30.
    const d = dateFromParts([1899, 12, 30, Number(m[1]), Number(m[2]), Number(m[3] ?? 0), 0], timeZone);
    if (d !== undefined) return { value: d, autoFormat: 'h:mm:ss' };
  }
  // A leading + - @ makes Sheets read a formula, which fails for text (§1, §2).
  if (input[0] === '+' || input[0] === '-') return { value: new CellFormula('=' + input) };
  if (input[0] === '@') return { value: new CellFormula('=' + input) };
  return { value: input };
}

function decimalsOf(s: string): string {
  const d = s.split('.')[1]?.length ?? 0;
  return d ? '.' + '0'.repeat(d) : '';
}

function dateFromParts(p: number[], timeZone: string): CellDate | undefined {
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0] = p;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCDate() !== d) return undefined;
  return new CellDate(zonedTimeToEpoch(y, mo, d, h, mi, s, ms, timeZone));
}

// ---- time zones ----

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    partFormatters.set(timeZone, f);
  }
  return f;
}

/** Wall-clock fields of an instant in a time zone. */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** 1 = Monday ... 7 = Sunday */
  weekday: number;
  offsetMs: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

export function zonedParts(ms: number, timeZone: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const p of partsFormatter(timeZone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const hour = Number(parts.hour) % 24;
  const minute = Number(parts.minute);
  const second = Number(parts.second);
  const msPart = ((ms % 1000) + 1000) % 1000;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, msPart);
  // Years before 100 need setUTCFullYear; Sheets' epoch (1899) is fine with Date.UTC.
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    ms: msPart,
    weekday: WEEKDAYS[parts.weekday ?? 'Mon'] ?? 1,
    offsetMs: asUtc - ms,
  };
}

/** Epoch ms of a wall-clock time in a time zone. */
export function zonedTimeToEpoch(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  timeZone: string,
): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  let result = guess - zonedParts(guess, timeZone).offsetMs;
  const corrected = guess - zonedParts(result, timeZone).offsetMs;
  if (corrected !== result) result = corrected;
  return result;
}

// ---- display ----

function general(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs >= 1e15 || abs < 1e-9))
    return n
      .toExponential(5)
      .replace(/e([+-])(\d)$/, 'E$10$2')
      .replace('e', 'E');
  return String(Number(n.toPrecision(10)));
}

function grouped(n: number, decimals: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Month names for date formats (Sheets' en_US, and Utilities.formatDate). */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Formats a date with a Sheets number-format pattern (yyyy, yy, mmmm, mmm, mm, m, dd, d, hh, h, ss, am/pm). */
export function formatSheetDate(ms: number, pattern: string, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const ampm = /am\/pm/i.test(pattern);
  const months = MONTHS;
  return pattern.replace(
    /"([^"]*)"|yyyy|yy|mmmm|mmm|mm|m|dd|d|hh|h|ss|s|am\/pm/gi,
    (tok, lit: string | undefined, offset: number) => {
      if (lit !== undefined) return lit;
      const t = tok.toLowerCase();
      const before = pattern.slice(0, offset);
      const after = pattern.slice(offset + tok.length);
      const isMinute = (t === 'mm' || t === 'm') && (/h+[^a-z]*$/i.test(before) || /^[^a-z]*s/i.test(after));
      const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
      switch (t) {
        case 'yyyy':
          return pad(p.year, 4);
        case 'yy':
          return pad(p.year % 100);
        case 'mmmm':
          return months[p.month - 1] ?? '';
        case 'mmm':
          return (months[p.month - 1] ?? '').slice(0, 3);
        case 'mm':
          return isMinute ? pad(p.minute) : pad(p.month);
        case 'm':
          return isMinute ? String(p.minute) : String(p.month);
        case 'dd':
          return pad(p.day);
        case 'd':
          return String(p.day);
        case 'hh':
          return pad(ampm ? hour12 : p.hour);
        case 'h':
          return String(ampm ? hour12 : p.hour);
        case 'ss':
          return pad(p.second);
        case 's':
          return String(p.second);
        default:
          return p.hour < 12 ? 'AM' : 'PM';
      }
    },
  );
}

/** A number format that shows dates or times (§12: such cells read back as Date). */
export function isDateTimeFormat(format: string | undefined): boolean {
  if (!format || format === PLAIN_TEXT || /^general$/i.test(format)) return false;
  // Quoted literals ("$") and escapes do not count.
  const bare = format.replace(/"[^"]*"|\\./g, '');
  return /[yd]|h:|:mm|mm:ss|am\/pm/i.test(bare);
}

/** A Sheets serial number (days since 1899-12-30, local wall time) as epoch ms in `timeZone`. */
export function serialToEpoch(serial: number, timeZone: string): number {
  const wall = new Date(Math.round((serial - 25569) * 86_400_000));
  return zonedTimeToEpoch(
    wall.getUTCFullYear(),
    wall.getUTCMonth() + 1,
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
    wall.getUTCMilliseconds(),
    timeZone,
  );
}

/** The string `getDisplayValues` shows for a stored (or computed) value under a number format. */
export function displayValue(
  value: string | number | boolean | CellDate | null,
  format: string | undefined,
  timeZone: string,
): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof CellDate) {
    if (format && /[yd]|h:|mm:ss/i.test(format) && format !== PLAIN_TEXT)
      return formatSheetDate(value.ms, format, timeZone);
    const p = zonedParts(value.ms, timeZone);
    const midnight = p.hour === 0 && p.minute === 0 && p.second === 0;
    return formatSheetDate(value.ms, midnight ? 'm/d/yyyy' : 'm/d/yyyy h:mm:ss', timeZone);
  }
  const n = value;
  if (!format || format === PLAIN_TEXT || format === DEFAULT_NUMBER_FORMAT || /^general$/i.test(format))
    return general(n);
  const pct = /^0(?:\.(0+))?%$/.exec(format);
  if (pct) return (n * 100).toFixed(pct[1]?.length ?? 0) + '%';
  const exp = /^0(?:\.(0+))?E\+00$/i.exec(format);
  if (exp)
    return n
      .toExponential(exp[1]?.length ?? 0)
      .toUpperCase()
      .replace(/E([+-])(\d)$/, 'E$10$2');
  const cur = /^(?:"\$"|\$)#,##0(?:\.(0+))?$/.exec(format);
  if (cur) return (n < 0 ? '-$' : '$') + grouped(Math.abs(n), cur[1]?.length ?? 0);
  const grp = /^#,##0(?:\.(0+))?$/.exec(format);
  if (grp) return grouped(n, grp[1]?.length ?? 0);
  const fixed = /^0(?:\.(0+))?$/.exec(format);
  if (fixed) return n.toFixed(fixed[1]?.length ?? 0);
  if (/[yd]|h:/i.test(format)) {
    // A number under a date format: Sheets serial days since 1899-12-30.
    return formatSheetDate(Math.round((n - 25569) * 86400000), format, 'Etc/UTC');
  }
  return general(n);
}

// ---- formulas ----

/** Cell access a formula needs: the computed value of a cell on the same sheet (1-based). */
export type CellLookup = (row: number, col: number) => string | number | boolean | CellDate | null;

/** Functions Sheets knows but the simulator cannot run; they show `#N/A` (they would fetch). */
const EXTERNAL_FUNCTIONS = new Set([
  'IMPORTXML',
  'IMPORTDATA',
  'IMPORTHTML',
  'IMPORTFEED',
  'IMPORTRANGE',
  'IMAGE',
  'GOOGLEFINANCE',
]);

class FormulaError {
  constructor(readonly code: string) {}
}

/**
 * Evaluates a small subset: numbers, strings, TRUE/FALSE, A1 refs on the same sheet, + - * / ^ & and
 * unary signs, parentheses, SUM/MIN/MAX over refs and ranges. Unknown names give `#NAME?`, syntax errors
 * `#ERROR!`, division by zero `#DIV/0!`, text in arithmetic `#VALUE!`.
 */
export function evaluateFormula(
  text: string,
  lookup: CellLookup,
): string | number | boolean | CellDate | null {
  const src = text.slice(1);
  let pos = 0;
  const peek = () => {
    while (src[pos] === ' ') pos++;
    return src[pos];
  };
  const num = (v: unknown): number => {
    if (v instanceof FormulaError) throw v;
    if (v === null || v === '') return 0;
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v instanceof CellDate) return v.ms / 86400000 + 25569;
    const n = Number(v);
    if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(n)) return n;
    throw new FormulaError('#VALUE!');
  };
  const colNum = (letters: string) =>
    [...letters.toUpperCase()].reduce((a, c) => a * 26 + c.charCodeAt(0) - 64, 0);
  const refValues = (ref: string): unknown[] => {
    const [a, b] = ref.replace(/\$/g, '').split(':');
    const pa = /^([A-Za-z]+)(\d+)$/.exec(a ?? '');
    const pb = /^([A-Za-z]+)(\d+)$/.exec(b ?? a ?? '');
    if (!pa || !pb) throw new FormulaError('#REF!');
    const r1 = Math.min(Number(pa[2]), Number(pb[2]));
    const r2 = Math.max(Number(pa[2]), Number(pb[2]));
    const c1 = Math.min(colNum(pa[1] as string), colNum(pb[1] as string));
    const c2 = Math.max(colNum(pa[1] as string), colNum(pb[1] as string));
    if ((r2 - r1 + 1) * (c2 - c1 + 1) > 100000) throw new FormulaError('#REF!');
    const out: unknown[] = [];
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) out.push(lookup(r, c));
    return out;
  };
  const primary = (): unknown => {
    const ch = peek();
    if (ch === undefined) throw new FormulaError('#ERROR!');
    if (ch === '(') {
      pos++;
      const v = expr();
      if (peek() !== ')') throw new FormulaError('#ERROR!');
      pos++;
      return v;
    }
    if (ch === '"') {
      const end = src.indexOf('"', pos + 1);
      if (end < 0) throw new FormulaError('#ERROR!');
      const s = src.slice(pos + 1, end);
      pos = end + 1;
      return s;
    }
    const numMatch = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(pos));
    if (numMatch) {
      pos += numMatch[0].length;
      return Number(numMatch[0]);
    }
    const refMatch = /^\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?(?![\w(])/.exec(src.slice(pos));
    if (refMatch) {
      pos += refMatch[0].length;
      const values = refValues(refMatch[0]);
      return refMatch[0].includes(':') ? values : values[0];
    }
    const name = /^[A-Za-z_][\w.]*/.exec(src.slice(pos));
    if (name) {
      pos += name[0].length;
      const upper = name[0].toUpperCase();
      if (peek() === '(') {
        pos++;
        const args: unknown[] = [];
        if (peek() !== ')') {
          for (;;) {
            args.push(expr());
            if (peek() === ',') {
              pos++;
              continue;
            }
            break;
          }
        }
        if (peek() !== ')') throw new FormulaError('#ERROR!');
        pos++;
        const flat = args
          .flat()
          .filter((v) => typeof v === 'number' || v instanceof FormulaError || v instanceof CellDate);
        if (upper === 'SUM') return flat.reduce((a: number, v) => a + num(v), 0);
        if (upper === 'MIN') return flat.length ? Math.min(...flat.map(num)) : 0;
        if (upper === 'MAX') return flat.length ? Math.max(...flat.map(num)) : 0;
        if (EXTERNAL_FUNCTIONS.has(upper)) throw new FormulaError('#N/A');
        throw new FormulaError('#NAME?');
      }
      if (upper === 'TRUE') return true;
      if (upper === 'FALSE') return false;
      throw new FormulaError('#NAME?');
    }
    throw new FormulaError('#ERROR!');
  };
  const unary = (): unknown => {
    const ch = peek();
    if (ch === '-') {
      pos++;
      return -num(unary());
    }
    if (ch === '+') {
      pos++;
      return unary();
    }
    return primary();
  };
  const power = (): unknown => {
    let v = unary();
    while (peek() === '^') {
      pos++;
      v = num(v) ** num(unary());
    }
    return v;
  };
  const term = (): unknown => {
    let v = power();
    for (let ch = peek(); ch === '*' || ch === '/'; ch = peek()) {
      pos++;
      const r = num(power());
      if (ch === '/' && r === 0) throw new FormulaError('#DIV/0!');
      v = ch === '*' ? num(v) * r : num(v) / r;
    }
    return v;
  };
  const sum = (): unknown => {
    let v = term();
    for (let ch = peek(); ch === '+' || ch === '-'; ch = peek()) {
      pos++;
      const r = num(term());
      v = ch === '+' ? num(v) + r : num(v) - r;
    }
    return v;
  };
  const expr = (): unknown => {
    let v = sum();
    while (peek() === '&') {
      pos++;
      const r = sum();
      v = String(v ?? '') + String(r ?? '');
    }
    return v;
  };
  try {
    const v = expr();
    if (peek() !== undefined) return '#ERROR!';
    if (Array.isArray(v)) return (v[0] as string | number | boolean | CellDate | null) ?? '';
    if (typeof v === 'number' && !Number.isFinite(v)) return '#NUM!';
    return v as string | number | boolean | CellDate | null;
  } catch (e) {
    if (e instanceof FormulaError) return e.code;
    if (e instanceof RangeError) return '#REF!';
    throw e;
  }
}
