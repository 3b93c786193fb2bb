// How a service value lives in a cell and comes back: the value written, the value expected on
// read-back, the digest that detects edits, and the decoding of an edited cell into JSON.
import type { ColumnKind, ColumnSpec } from './columns';
import { type Digest, digest, digestFrom, mixDigest } from './digest';

/** Google Sheets keeps at most this many characters in one cell. */
export const MAX_CELL_CHARS = 50000;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A value read from a cell: Number, Boolean, Date or String ('' when blank). */
export type CellValue = unknown;

export interface EncodedCell {
  /** What setValues receives. */
  write: string | number | boolean;
  /** What getValues gives back for it (strings: under every reading of leading apostrophes). */
  read: string | number | boolean;
  /** The value did not fit in a cell and was shortened. */
  truncated?: boolean;
}

export interface DateLike {
  getTime(): number;
}

export function isDateLike(value: unknown): value is DateLike {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? '';
}

/** The mark around a value longer than a cell holds: its start shows, marked, and is read-only. */
const CUT_TAIL = ' …✂';

function cutHead(length: number): string {
  return `✂ cut to fit a cell: ${length} characters on the service, the start shows here, read-only: `;
}

/**
 * A text longer than a cell holds becomes a marked prefix (never a silent cut); the same text
 * always gives the same cell, so an unedited cut cell reads back as agreed.
 */
export function cutToCell(text: string): string {
  if (text.length <= MAX_CELL_CHARS) return text;
  const head = cutHead(text.length);
  return head + text.slice(0, MAX_CELL_CHARS - head.length - CUT_TAIL.length) + CUT_TAIL;
}

/** Whether a cell read of a service value is a cut (marked) one: such a column is read-only. */
export function isCutRead(read: unknown): boolean {
  return (
    typeof read === 'string' &&
    read.length > CUT_TAIL.length &&
    read.startsWith('✂ cut to fit a cell: ') &&
    read.endsWith(CUT_TAIL)
  );
}

/**
 * Whether a cell holds a cut value, edited or not: it still carries the mark at its start or end.
 * Such a cell is read-only; pushing it would send a cut value.
 */
export function isCutCell(value: unknown): boolean {
  return typeof value === 'string' && (value.includes('✂ cut to fit a cell: ') || value.endsWith(CUT_TAIL));
}

/**
 * Whether a service value is longer than a cell holds (its column is read-only on that line): exactly
 * when encodeCell shows it cut, so the push and the pull never disagree on which cells are.
 */
export function isOverCellLimit(value: unknown, kind: ColumnKind): boolean {
  return encodeCell(value, kind).truncated === true;
}

function fitCell(text: string): { text: string; truncated: boolean } {
  return text.length > MAX_CELL_CHARS
    ? { text: cutToCell(text), truncated: true }
    : { text, truncated: false };
}

function textCell(text: string): EncodedCell {
  const fitted = fitCell(text);
  return fitted.truncated
    ? { write: fitted.text, read: fitted.text, truncated: true }
    : { write: text, read: text };
}

/** In typed (not plain-text) cells a string is forced to stay text with a leading apostrophe. */
function forcedTextCell(text: string): EncodedCell {
  const fitted = fitCell(text);
  const cell: EncodedCell = { write: `'${fitted.text}`, read: fitted.text };
  if (fitted.truncated) cell.truncated = true;
  return cell;
}

/**
 * Encodes a service value for a column of this kind. Text and JSON columns are formatted as plain
 * text (`@`) before writing, so their strings are never parsed; number and boolean columns keep the
 * spreadsheet's own format, so stray strings there are guarded with an apostrophe.
 */
const EMPTY_CELL: EncodedCell = Object.freeze({ write: '', read: '' });

export function encodeCell(value: unknown, kind: ColumnKind): EncodedCell {
  if (value === null || value === undefined) return EMPTY_CELL;
  switch (kind) {
    case 'text':
      return textCell(typeof value === 'string' ? value : jsonText(value));
    case 'list':
      return textCell(listCellText(value));
    case 'json':
      return textCell(jsonText(value));
    case 'number':
    case 'boolean':
      if (typeof value === 'number' && Number.isFinite(value)) return { write: value, read: value };
      if (typeof value === 'boolean') return { write: value, read: value };
      if (value === '') return EMPTY_CELL;
      return forcedTextCell(typeof value === 'string' ? value : jsonText(value));
  }
}

/**
 * The comparable form of a cell value. A leading apostrophe is ignored because Sheets may or may not
 * keep it in plain-text cells (apps-script-facts §1, unconfirmed): either reading must compare equal.
 */
export function canonicalCell(value: CellValue): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return `s${value.charCodeAt(0) === 39 ? value.slice(1) : value}`;
  if (typeof value === 'number') {
    const kept = sheetPrecision(value);
    return kept === 0 ? 'n0' : `n${String(kept)}`;
  }
  if (typeof value === 'boolean') return value ? 'b1' : 'b0';
  if (isDateLike(value)) return `d${value.getTime()}`;
  return `o${String(value)}`;
}

const TEXT_SEED = 1;
const NUMBER_SEED = 2;
const BOOLEAN_SEED = 3;
const DATE_SEED = 4;
const OTHER_SEED = 5;
const EMPTY_DIGEST = digest('');

const NUMBER_BITS = new Float64Array(1);
const NUMBER_WORDS = new Uint32Array(NUMBER_BITS.buffer);

/**
 * Sheets may keep only 15 significant digits of a number (0.1 + 0.2 reads back as 0.3): numbers
 * compare at that precision, so a value the sheet rounded never reads as a person's edit and is not
 * pushed back (again and again). Integers below 10^15 are exact and skip the rounding.
 */
export function sheetPrecision(value: number): number {
  const magnitude = Math.abs(value);
  if ((magnitude < 1e15 && Number.isInteger(value)) || !Number.isFinite(value) || value === 0) return value;
  // Arithmetic instead of toPrecision (7x faster). Powers of ten up to 1e22 are exact, so k / 10^n is
  // the double nearest the 15-digit decimal, as Number(toPrecision(15)) is; values that sit on a
  // rounding edge, or outside that range, take toPrecision so both readings agree.
  const digits = 14 - Math.floor(Math.log10(magnitude));
  if (digits > 22 || digits < -22) return Number(value.toPrecision(15));
  const scaled = digits >= 0 ? value * 10 ** digits : value / 10 ** -digits;
  const rounded = Math.round(scaled);
  if (Math.abs(Math.abs(scaled - rounded) - 0.5) < 1e-3) return Number(value.toPrecision(15));
  return digits >= 0 ? rounded / 10 ** digits : rounded * 10 ** -digits;
}

/** A number's digest from its 64 bits at sheet precision; -0 counts as 0. */
function numberDigest(value: number): Digest {
  const kept = sheetPrecision(value);
  NUMBER_BITS[0] = kept === 0 ? 0 : kept;
  return mixDigest(NUMBER_WORDS[0] as number, NUMBER_WORDS[1] as number, NUMBER_SEED);
}

/** Called with .call: a method looked up on cells of many string representations is not inlined. */
const charCodeAt = String.prototype.charCodeAt;

const TRUE_DIGEST = digest('1', BOOLEAN_SEED);
const FALSE_DIGEST = digest('0', BOOLEAN_SEED);

/**
 * The digest of canonicalCell(value), computed without building the canonical string: each type
 * hashes with its own seed, so long texts are hashed once and never copied.
 */
export function cellDigest(value: CellValue): Digest {
  // Strings and numbers first: they are nearly every cell.
  if (typeof value === 'string') {
    if (value === '') return EMPTY_DIGEST;
    return charCodeAt.call(value, 0) === 39 ? digestFrom(value, 1, TEXT_SEED) : digest(value, TEXT_SEED);
  }
  if (typeof value === 'number') return numberDigest(value);
  if (value === null || value === undefined) return EMPTY_DIGEST;
  if (typeof value === 'boolean') return value ? TRUE_DIGEST : FALSE_DIGEST;
  if (isDateLike(value)) return digest(String(value.getTime()), DATE_SEED);
  return digest(String(value), OTHER_SEED);
}

/** Whether a cell read back is exactly the cell a value was written as (cheap; no hashing). */
export function readsBackAs(value: CellValue, read: EncodedCell['read']): boolean {
  if (value === read) return true;
  return typeof value === 'number' && typeof read === 'number' && value === read;
}

/**
 * What getValues gives back for the cell a service value becomes (encodeCell(...).read), without
 * allocating the encoded pair: merges compare this against every cell of every row.
 */
export function cellRead(value: unknown, kind: ColumnKind): string | number | boolean {
  if (value === null || value === undefined) return '';
  let text: string;
  if (kind === 'json') {
    text = jsonText(value);
  } else if (kind === 'list') {
    text = listCellText(value);
  } else if (kind === 'text') {
    text = typeof value === 'string' ? value : jsonText(value);
  } else {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'boolean' || value === '') return value as boolean | string;
    text = typeof value === 'string' ? value : jsonText(value);
  }
  return text.length > MAX_CELL_CHARS ? cutToCell(text) : text;
}

/** Digest of the cell a service value becomes: equal to cellDigestFor of an unedited cell. */
export function valueDigest(value: unknown, kind: ColumnKind): Digest {
  return readDigest(value, cellRead(value, kind), kind);
}

// ---- lists of texts ---------------------------------------------------------------------------------

const LIST_SEPARATOR = ', ';

/**
 * Whether a choice shows as itself in a comma-separated cell and reads back the same: not empty, no
 * comma, no spaces at its ends, and nothing that looks like JSON (a number, true/false/null, or a
 * start of [, { or ").
 */
function plainChoice(item: string): boolean {
  if (item === '' || item.includes(',') || item.trim() !== item) return false;
  const first = item.charCodeAt(0);
  if (first === 0x5b || first === 0x7b || first === 0x22) return false; // [ { "
  if (item === 'true' || item === 'false' || item === 'null') return false;
  // Only a digit, sign or point can start a number: most choices skip the pattern.
  const startsNumber = (first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d || first === 0x2e;
  return !(startsNumber && NUMBER_PATTERN.test(item));
}

/**
 * How a list column's value shows: a list of texts as `first, second` where every choice is plain
 * (plainChoice) and the text fits a cell, anything else (an empty list, a choice with a comma, other
 * values) as JSON text, as a JSON column shows it.
 */
function listCellText(value: unknown): string {
  if (isTextList(value) && value.length > 0 && value.every(plainChoice)) {
    const text = value.join(LIST_SEPARATOR);
    if (text.length <= MAX_CELL_CHARS) return text;
  }
  return jsonText(value);
}

/** Whether a list cell's text is JSON (it starts with [, { or "), not comma-separated choices. */
function looksLikeJson(text: string): boolean {
  const first = text.charCodeAt(0);
  return first === 0x5b || first === 0x7b || first === 0x22;
}

/**
 * The choices a list cell's text names: JSON when it looks like JSON, else comma-separated (each
 * trimmed, empty ones dropped). Null when the text is neither a JSON list of texts nor plain choices.
 */
function listItemsOf(text: string): string[] | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (looksLikeJson(trimmed)) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : null;
    } catch {
      return null;
    }
  }
  // In place: the parts become the choices (a push reads every list cell of every line).
  const items = text.split(',');
  let count = 0;
  for (let i = 0; i < items.length; i++) {
    const item = (items[i] as string).trim();
    if (item === '') continue;
    if (looksLikeJson(item)) return null;
    items[count++] = item;
  }
  items.length = count;
  return count > 0 ? items : null;
}

/**
 * The digest of a list cell by the choices it names, whatever way they are written (`a, b`, `a,b`,
 * `["a", "b"]`): the digest of their JSON text, as a JSON column's cell had it, so a list shown either
 * way (and a base agreed before lists showed with commas) compares equal. Any other text, and a cut
 * value, by its text.
 */
export function listCellDigest(value: CellValue): Digest {
  if (typeof value === 'string' && value !== '' && !isCutCell(value)) {
    const items = listItemsOf(value);
    if (items !== null) return cellDigest(jsonText(items));
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    return cellDigest(jsonText([typedChoice(value)]));
  }
  return cellDigest(value);
}

/** The one choice a number or TRUE/FALSE read from a list cell names. */
function typedChoice(value: number | boolean): string {
  return typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value);
}

/**
 * The digest of the cell a service value became (`read`, its cellRead): cellDigestFor(read, kind),
 * without reading a list's choices back out of its text (the pull compares every row's every cell).
 */
export function readDigest(value: unknown, read: EncodedCell['read'], kind: ColumnKind): Digest {
  if (kind !== 'list' || typeof read !== 'string') return cellDigest(read);
  // Shown as JSON (JSON.stringify's own text, which reads back to itself) or cut: its text is its digest.
  if (looksLikeJson(read) || isCutRead(read)) return cellDigest(read);
  return isTextList(value) ? cellDigest(jsonText(value)) : listCellDigest(read);
}

function isTextList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
}

/** The digest a cell of a column of this kind compares by: by its choices in a list column, its value elsewhere. */
export function cellDigestFor(value: CellValue, kind: ColumnKind): Digest {
  return kind === 'list' ? listCellDigest(value) : cellDigest(value);
}

export type Decoded = { ok: true; value: JsonValue } | { ok: false; reason: string };

export interface DecodeContext {
  /** Formats a Date read from a cell the way a person would type it (spreadsheet time zone). */
  formatDate(date: DateLike): string;
}

const NUMBER_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** Text that reads as a date (ISO or US order, optionally with a time). */
const DATE_TEXT = /^(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}\/\d{1,2}\/\d{4})([ T]\d{1,2}:\d{2}(:\d{2})?)?$/;

/** Why a date cannot go into a number column, and what to do. */
function dateInNumberColumn(columnId: string, shown: string): Decoded {
  return {
    ok: false,
    reason: `${columnId}: a date in a number column ("${shown}"). Type a number instead; a pull gives the cell its number format back.`,
  };
}

function describe(value: CellValue): string {
  const text = typeof value === 'string' ? value : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function checkLength(text: string, column: ColumnSpec): Decoded {
  if (column.maxLength !== undefined && text.length > column.maxLength) {
    return {
      ok: false,
      reason: `${column.id}: the text has ${text.length} characters; the column takes at most ${column.maxLength}.`,
    };
  }
  return { ok: true, value: text };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTHS = [
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

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Checks a date column's text: a real calendar day written YYYY-MM-DD, or says what to write. */
export function checkIsoDate(text: string, columnId: string): Decoded {
  const trimmed = text.trim();
  const match = ISO_DATE.exec(trimmed);
  if (!match) {
    return {
      ok: false,
      reason: `${columnId}: "${describe(trimmed)}" is not a date the service takes: write it as YYYY-MM-DD, for example 2024-02-29.`,
    };
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12) {
    return { ok: false, reason: `${columnId}: ${trimmed} has no month ${month} (write YYYY-MM-DD).` };
  }
  const days = daysIn(year, month);
  if (day < 1 || day > days) {
    return {
      ok: false,
      reason: `${columnId}: ${trimmed} is not a day of the calendar (${MONTHS[month - 1]} ${year} has ${days} days).`,
    };
  }
  return { ok: true, value: trimmed };
}

function checkDate(value: CellValue, column: ColumnSpec, context: DecodeContext): Decoded {
  if (isDateLike(value)) {
    const text = context.formatDate(value);
    if (text.length > 10) {
      return {
        ok: false,
        reason: `${column.id}: ${text} has a time of day; the column holds dates only (write YYYY-MM-DD).`,
      };
    }
    return checkIsoDate(text, column.id);
  }
  if (typeof value === 'string') return checkIsoDate(value, column.id);
  return {
    ok: false,
    reason: `${column.id}: "${describe(value)}" is not a date: write it as YYYY-MM-DD, for example 2024-02-29.`,
  };
}

/** Checks a decoded JSON value against the column's shape (a list of texts, an object). */
function checkShape(decoded: Decoded, column: ColumnSpec, shown: CellValue): Decoded {
  if (!decoded.ok || decoded.value === null) return decoded;
  const value = decoded.value;
  if (column.shape === 'text-list') {
    if (Array.isArray(value) && value.every((each) => typeof each === 'string')) return decoded;
    return {
      ok: false,
      reason: `${column.id}: "${describe(shown)}" is not a list of choices: write them as ["first", "second"].`,
    };
  }
  if (column.shape === 'object') {
    if (typeof value === 'object' && !Array.isArray(value)) return decoded;
    return {
      ok: false,
      reason: `${column.id}: "${describe(shown)}" is not a JSON object: write it as {"name": "value"}.`,
    };
  }
  return decoded;
}

function notANumber(value: CellValue, column: ColumnSpec): Decoded {
  const text = typeof value === 'string' ? value.trim() : '';
  // A decimal comma (12,5) or thousands separators (1,200.50) as people write them in many locales.
  if (/^[+-]?\d+,\d+$/.test(text)) {
    return {
      ok: false,
      reason: `${column.id}: "${describe(value)}" is not a number: write decimals with a point (${text.replace(',', '.')}).`,
    };
  }
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) {
    return {
      ok: false,
      reason: `${column.id}: "${describe(value)}" is not a number: leave out the thousands commas (${text.replace(/,/g, '')}).`,
    };
  }
  return { ok: false, reason: `${column.id}: "${describe(value)}" is not a number.` };
}

/**
 * Turns an edited cell into the JSON value the service expects for the column, or says why not in
 * words a person can act on. Every shape the schema states is checked here, before anything is sent:
 * numbers, TRUE/FALSE, text length, calendar dates (YYYY-MM-DD), lists of texts and JSON objects.
 */
export function decodeCell(value: CellValue, column: ColumnSpec, context: DecodeContext): Decoded {
  if (value === null || value === undefined || value === '') return { ok: true, value: null };
  if (column.shape === 'date') {
    if (typeof value === 'string' && value.trim() === '') return { ok: true, value: null };
    const date = checkDate(value, column, context);
    return date.ok ? checkLength(date.value as string, column) : date;
  }
  if (column.kind === 'list') return decodeList(value, column);
  if (column.kind === 'json') return checkShape(decodeJson(value, column), column, value);
  switch (column.kind) {
    case 'text': {
      if (typeof value === 'string') return checkLength(value, column);
      if (typeof value === 'number') return checkLength(String(value), column);
      if (typeof value === 'boolean') return checkLength(value ? 'TRUE' : 'FALSE', column);
      if (isDateLike(value)) return checkLength(context.formatDate(value), column);
      return checkLength(String(value), column);
    }
    case 'number': {
      if (typeof value === 'number') {
        return Number.isFinite(value)
          ? { ok: true, value }
          : { ok: false, reason: `${column.id}: not a finite number.` };
      }
      if (typeof value === 'string') {
        const trimmed = value.trim();
        if (trimmed === '') return { ok: true, value: null };
        if (NUMBER_PATTERN.test(trimmed)) {
          const number = Number(trimmed);
          if (Number.isFinite(number)) return { ok: true, value: number };
          return { ok: false, reason: `${column.id}: "${describe(value)}" is too large a number.` };
        }
        if (DATE_TEXT.test(trimmed)) return dateInNumberColumn(column.id, trimmed);
      }
      if (isDateLike(value)) return dateInNumberColumn(column.id, context.formatDate(value));
      return notANumber(value, column);
    }
    case 'boolean': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (typeof value === 'string') {
        const lower = value.trim().toLowerCase();
        if (lower === 'true') return { ok: true, value: true };
        if (lower === 'false') return { ok: true, value: false };
        if (lower === '') return { ok: true, value: null };
      }
      return { ok: false, reason: `${column.id}: "${describe(value)}" is not TRUE or FALSE.` };
    }
  }
}

function decodeJson(value: CellValue, column: ColumnSpec): Decoded {
  if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'string') {
    try {
      return { ok: true, value: JSON.parse(value) as JsonValue };
    } catch {
      return {
        ok: false,
        reason: `${column.id}: "${describe(value)}" is not valid JSON (write text in "double quotes").`,
      };
    }
  }
  return { ok: false, reason: `${column.id}: a date is not valid JSON; write it as "text".` };
}

/** What to write in a list column, for a person. */
const LIST_HINT =
  'write the choices separated by commas (first, second), or as a JSON list ["first", "second"] when a choice holds a comma or quotes';

/**
 * A list column's cell: comma-separated choices (`enterprise, smb`), or a JSON list typed by hand
 * (`["enterprise", "smb"]`, `[]` for none). A number or TRUE/FALSE read from the cell is one choice.
 */
function decodeList(value: CellValue, column: ColumnSpec): Decoded {
  if (typeof value === 'number' || typeof value === 'boolean')
    return { ok: true, value: [typedChoice(value)] };
  if (typeof value !== 'string') {
    return { ok: false, reason: `${column.id}: a date is not a list of choices: ${LIST_HINT}.` };
  }
  const trimmed = value.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (looksLikeJson(trimmed)) {
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(trimmed) as JsonValue;
    } catch {
      return {
        ok: false,
        reason: `${column.id}: "${describe(value)}" is not a valid JSON list: ${LIST_HINT}.`,
      };
    }
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string'))
      return { ok: true, value: parsed };
    return {
      ok: false,
      reason: `${column.id}: "${describe(value)}" is not a list of choices: ${LIST_HINT}.`,
    };
  }
  const items = listItemsOf(value);
  if (items === null) {
    const quoted = value.split(',').some((item) => looksLikeJson(item.trim()));
    return {
      ok: false,
      reason: quoted
        ? `${column.id}: "${describe(value)}" mixes choices with JSON: ${LIST_HINT}.`
        : `${column.id}: "${describe(value)}" names no choice: ${LIST_HINT}, or leave the cell empty.`,
    };
  }
  return { ok: true, value: items };
}
