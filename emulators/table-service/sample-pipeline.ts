// The 'playground' data set: the sample data plus a table app for views (sync-rules.md, "Views"), whose
// Pipeline table has a choice, a number, a date, a checkbox and a multi-choice column. Deterministic:
// fixed clock and seed, so every start has the same ids and values.

import { makeColumn } from './columns.js';
import { createRng } from './rng.js';
import { emptyState, sampleState } from './sample-data.js';
import { Store } from './store.js';
import type { DataSetName, EmulatorState, JsonValue } from './types.js';

/** Ids and choices of the playground's extra table app. */
export const PLAYGROUND = {
  apps: { sales: 'ta_sales' },
  tables: { pipeline: 'tbl_pipeline' },
  stages: ['Lead', 'Qualified', 'Proposal', 'Negotiation', 'Won', 'Lost'],
  tags: ['enterprise', 'smb', 'partner', 'renewal', 'urgent'],
  /** Rows of the Pipeline table. */
  rows: 40,
} as const;

const COMPANIES = [
  'Initech',
  'Umbrella',
  'Stark & Sons',
  'Wayne Enterprises',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Tyrell',
  'Cyberdyne',
  'Wonka',
];
const KINDS = ['renewal', 'pilot', 'upgrade', 'expansion', 'license'];
const OWNERS = ['alice@acme.test', 'bob@acme.test', 'Erin.Evans@Acme.test'];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The values of the i-th Pipeline row (0-based): stages cycle, some cells empty on purpose. */
function pipelineRow(i: number, rng: ReturnType<typeof createRng>): Record<string, JsonValue> {
  const stage = PLAYGROUND.stages[(i * 7 + rng.int(2)) % PLAYGROUND.stages.length] as string;
  const tags = PLAYGROUND.tags.filter((_, k) => (i + k) % 3 === 0 && rng.next() < 0.8);
  const values: Record<string, JsonValue> = {
    title: `${COMPANIES[i % COMPANIES.length]} ${KINDS[i % KINDS.length]}`,
    stage: i % 13 === 12 ? null : stage,
    amount: i % 11 === 10 ? null : 500 * (1 + rng.int(80)),
    // Dates on both sides of the demo's clock (2025-2026), one left empty now and then.
    closeDate: i % 9 === 8 ? null : `${2025 + (i % 2)}-${pad(1 + ((i * 5) % 12))}-${pad(1 + ((i * 7) % 28))}`,
    won: stage === 'Won',
    tags,
    owner: OWNERS[i % OWNERS.length] as string,
  };
  return values;
}

/** The sample state plus the Sales app (acme) with its Pipeline table. */
export function playgroundState(): EmulatorState {
  const state = sampleState();
  let now = Date.parse('2025-06-02T09:00:00.000Z');
  const store = new Store(state, createRng(36), () => {
    now += 60_000;
    return now;
  });
  store.addApp('acc_acme', { id: PLAYGROUND.apps.sales, name: 'Sales' });
  const pipeline = store.putTable(PLAYGROUND.apps.sales, {
    id: PLAYGROUND.tables.pipeline,
    name: 'Pipeline',
    columns: [
      makeColumn('stage', 'Stage', 'select', { options: PLAYGROUND.stages }),
      makeColumn('amount', 'Amount', 'number'),
      makeColumn('closeDate', 'Close date', 'date'),
      makeColumn('won', 'Won', 'checkbox'),
      makeColumn('tags', 'Tags', 'multiSelect', { options: PLAYGROUND.tags }),
      makeColumn('owner', 'Owner', 'text', { max: 128 }),
    ],
  });
  const rng = createRng(37);
  for (let i = 0; i < PLAYGROUND.rows; i++)
    store.createRow(pipeline, pipelineRow(i, rng), i % 4 === 3 ? 'u_bob' : 'u_alice');
  return state;
}

/** A fresh copy of a built-in data set. */
export function dataSet(name: DataSetName): EmulatorState {
  if (name === 'sample') return sampleState();
  return name === 'playground' ? playgroundState() : emptyState();
}
