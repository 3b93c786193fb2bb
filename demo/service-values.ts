// What a person types into the playground's "Change a row on the service…" form, read as the value
// the column's type holds on the service, or refused with a sentence (issue 26, point 9: `lots` for a
// number was sent as null, cleared the cell and said "Changed").

/** A column as the form knows it. */
export interface ServiceColumn {
  id: string;
  name: string;
  type: string;
}

export type ServiceValue = { ok: true; value: unknown } | { ok: false; error: string };

const TRUE_WORDS = ['true', 'yes', '1', 'checked'];
const FALSE_WORDS = ['false', 'no', '0', 'unchecked'];

function refuse(text: string, column: ServiceColumn, wants: string): ServiceValue {
  return {
    ok: false,
    error: `"${text}" is not ${wants}: ${column.name} (${column.id}) is a ${column.type} column. Leave the value empty to clear the cell.`,
  };
}

function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** Reads `text` as a value of `column`'s type; empty text clears the cell (null). */
export function serviceValue(text: string, column: ServiceColumn): ServiceValue {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  switch (column.type) {
    case 'number': {
      const number = Number(trimmed);
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed) || !Number.isFinite(number))
        return refuse(trimmed, column, 'a number (e.g. 1200 or 12.5)');
      return { ok: true, value: number };
    }
    case 'checkbox': {
      const word = trimmed.toLowerCase();
      if (TRUE_WORDS.includes(word)) return { ok: true, value: true };
      if (FALSE_WORDS.includes(word)) return { ok: true, value: false };
      return refuse(trimmed, column, 'true or false');
    }
    case 'date':
      return isIsoDate(trimmed)
        ? { ok: true, value: trimmed }
        : refuse(trimmed, column, 'a date written YYYY-MM-DD (e.g. 2026-11-25)');
    case 'multiSelect': {
      if (trimmed.startsWith('[')) {
        try {
          const list = JSON.parse(trimmed) as unknown;
          if (Array.isArray(list) && list.every((item) => typeof item === 'string'))
            return { ok: true, value: list };
        } catch {
          // Not JSON: read below as a comma-separated list would be wrong for text starting with "[".
        }
        return refuse(trimmed, column, 'a list of texts (e.g. enterprise, smb)');
      }
      return {
        ok: true,
        value: trimmed
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      };
    }
    case 'json': {
      try {
        const value = JSON.parse(trimmed) as unknown;
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, value };
      } catch {
        // Refused below with an example.
      }
      return refuse(trimmed, column, 'a JSON object (e.g. {"tier": "gold"})');
    }
    default:
      return { ok: true, value: text };
  }
}
