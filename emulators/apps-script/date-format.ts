// Utilities.formatDate: Java SimpleDateFormat patterns rendered in a named time zone.
import { MONTHS, zonedParts } from './cell-values';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function offsetString(offsetMs: number, style: 'Z' | 'X' | 'XX' | 'XXX'): string {
  if (offsetMs === 0 && style !== 'Z') return 'Z';
  const sign = offsetMs < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(offsetMs / 60000));
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  if (style === 'X') return sign + hh;
  if (style === 'XXX') return `${sign}${hh}:${mm}`;
  return sign + hh + mm;
}

function zoneName(ms: number, timeZone: string, long: boolean): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: long ? 'long' : 'short' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/** Formats `ms` with a SimpleDateFormat pattern (y M d H h k K m s S E u a D z Z X, quoted literals). */
export function formatJavaDate(ms: number, timeZone: string, pattern: string): string {
  const p = zonedParts(ms, timeZone);
  let out = '';
  for (let i = 0; i < pattern.length; ) {
    const ch = pattern[i] as string;
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      const end = pattern.indexOf("'", i + 1);
      out += pattern.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(ch)) {
      out += ch;
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === ch) n++;
    i += n;
    const pad = (v: number, w = n) => String(v).padStart(w, '0');
    switch (ch) {
      case 'y':
      case 'Y':
        out += n === 2 ? pad(p.year % 100, 2) : pad(p.year);
        break;
      case 'M':
      case 'L':
        out +=
          n >= 4 ? MONTHS[p.month - 1] : n === 3 ? (MONTHS[p.month - 1] as string).slice(0, 3) : pad(p.month);
        break;
      case 'd':
        out += pad(p.day);
        break;
      case 'D': {
        const start = Date.UTC(p.year, 0, 1);
        out += pad(Math.floor((Date.UTC(p.year, p.month - 1, p.day) - start) / 86400000) + 1);
        break;
      }
      case 'H':
        out += pad(p.hour);
        break;
      case 'k':
        out += pad(p.hour === 0 ? 24 : p.hour);
        break;
      case 'K':
        out += pad(p.hour % 12);
        break;
      case 'h':
        out += pad(p.hour % 12 === 0 ? 12 : p.hour % 12);
        break;
      case 'm':
        out += pad(p.minute);
        break;
      case 's':
        out += pad(p.second);
        break;
      case 'S':
        out += String(p.ms).padStart(3, '0').slice(0, Math.max(3, n)).padEnd(n, '0');
        break;
      case 'E':
        out += n >= 4 ? DAYS[p.weekday - 1] : (DAYS[p.weekday - 1] as string).slice(0, 3);
        break;
      case 'u':
        out += pad(p.weekday);
        break;
      case 'a':
        out += p.hour < 12 ? 'AM' : 'PM';
        break;
      case 'z':
        out += zoneName(ms, timeZone, n >= 4);
        break;
      case 'Z':
        out += offsetString(p.offsetMs, 'Z');
        break;
      case 'X':
        out += offsetString(p.offsetMs, n === 1 ? 'X' : n === 2 ? 'XX' : 'XXX');
        break;
      default:
        throw new Error(`Illegal pattern character '${ch}'`);
    }
  }
  return out;
}
