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

/** Whether a service value is longer than a cell holds (its column is read-only on that line). */
export function isOverCellLimit(value: unknown, kind: ColumnKind): boolean {
  if (value === null || value === undefined) return false;
  if ((kind === 'number' || kind === 'boolean') && (typeof value !== 'string' || value === '')) {
    if (typeof value === 'number' || typeof value === 'boolean' || value === '') return false;
  }
  const text = typeof value === 'string' && kind !== 'json' ? value : jsonText(value);
  return text.length > MAX_CELL_CHARS;
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
  if (typeof value === 'number') return value === 0 ? 'n0' : `n${String(value)}`;
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

/** A number's digest from its 64 bits (no string conversion); -0 counts as 0. */
function numberDigest(value: number): Digest {
  NUMBER_BITS[0] = value === 0 ? 0 : value;
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
export function sameCell(value: CellValue, read: EncodedCell['read']): boolean {
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
  } else if (kind === 'text') {
    text = typeof value === 'string' ? value : jsonText(value);
  } else {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'boolean' || value === '') return value as boolean | string;
    text = typeof value === 'string' ? value : jsonText(value);
  }
  return text.length > MAX_CELL_CHARS ? cutToCell(text) : text;
}

/** Digest of the cell a service value becomes: equal to cellDigest of an unedited cell. */
export function valueDigest(value: unknown, kind: ColumnKind): Digest {
  return cellDigest(cellRead(value, kind));
}

export type Decoded = { ok: true; value: JsonValue } | { ok: false; reason: string };

export interface DecodeContext {
  /** Formats a Date read from a cell the way a person would type it (spreadsheet time zone). */
  formatDate(date: DateLike): string;
}

const NUMBER_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

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

/** Turns an edited cell into the JSON value the service expects for the column, or says why not. */
export function decodeCell(value: CellValue, column: ColumnSpec, context: DecodeContext): Decoded {
  if (value === null || value === undefined || value === '') return { ok: true, value: null };
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
        if (NUMBER_PATTERN.test(trimmed)) return { ok: true, value: Number(trimmed) };
      }
      return { ok: false, reason: `${column.id}: "${describe(value)}" is not a number.` };
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
    case 'json': {
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
  }
}
