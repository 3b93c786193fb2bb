// The fast interleaving chaos mode: seeded small scenarios (10-30 rows, Ann and Bob with their own
// keys, edits on both sides, a service fault now and then), one pull, push, sync or live push (live
// sync's push of the edited lines) with a person
// acting before its k-th port call, then a final sync; invariants checked after each. INTERLEAVINGS
// sets how many run (default small enough for CI), INTERLEAVINGS_SEED the first seed, and
// INTERLEAVINGS_EVERY=1 runs every k of each scenario instead of a sample, INTERLEAVINGS_OPS=live,push
// only the scenarios whose run is one of those.
import { beforeAll, describe, expect, it } from 'vitest';
import { callsOf, Interleaving, races, randomOf, runInterleaving } from './interleavings';

const COUNT = Number(process.env.INTERLEAVINGS ?? 2000);
const FIRST_SEED = Number(process.env.INTERLEAVINGS_SEED ?? 1);
const EVERY = process.env.INTERLEAVINGS_EVERY === '1';
const OPS = process.env.INTERLEAVINGS_OPS?.split(',') ?? null;
/** Points sampled per scenario (unless EVERY): more scenarios, each seen at a few moments. */
const POINTS_PER_SCENARIO = 8;

interface Found {
  seed: number;
  point: number;
  violation: string;
  story: string[];
}

const found: Found[] = [];
let interleavings = 0;
let scenarios = 0;

describe(`interleavings of a person with a pull, push, sync or live push (${COUNT}, from seed ${FIRST_SEED})`, () => {
  beforeAll(() => {
    const started = Date.now();
    for (let seed = FIRST_SEED; interleavings < COUNT; seed++) {
      if (OPS && !OPS.includes(new Interleaving(seed).op)) continue;
      scenarios += 1;
      const calls = callsOf(seed);
      let points = [...Array(calls).keys()];
      if (!EVERY && calls > POINTS_PER_SCENARIO) {
        const random = randomOf(seed);
        points = points
          .map((point) => ({ point, order: random() }))
          .sort((a, b) => a.order - b.order)
          .slice(0, POINTS_PER_SCENARIO)
          .map(({ point }) => point)
          .sort((a, b) => a - b);
      }
      for (const point of points) {
        if (interleavings >= COUNT) break;
        interleavings += 1;
        const { violations, story } = runInterleaving(seed, point);
        for (const violation of violations) found.push({ seed, point, violation, story });
      }
    }
    const byKind = new Map<string, number>();
    for (const each of found) {
      const kind = each.violation.replace(/\d+/g, '#').replace(/"[^"]*"/g, '"…"');
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    }
    console.log(
      `${interleavings} interleavings of ${scenarios} scenarios in ${Date.now() - started} ms; ${found.length} violations; ${races.count} changes of Bob's overwritten inside a network window (read → PATCH, no Spreadsheet call between: no client of a service without conditional updates can see them)`,
      ...[...byKind].map(([kind, count]) => `\n  ${count} × ${kind}`),
    );
  }, 3_600_000);

  it('ran the interleavings asked for', () => {
    expect(interleavings).toBe(COUNT);
  });

  // The bugs this mode found first (a typed cell recorded as agreed, a base moved for lines not
  // written, creates sent again after a committed 503 or under another key, options written back)
  // each have a minimal case in test/core/sync/run-pull.test.ts and run-push.test.ts.
  it('no interleaving leaves a duplicate row, a lost edit or a value nobody typed', () => {
    expect(
      found.map((each) =>
        [`seed ${each.seed}, call ${each.point}: ${each.violation}`, ...each.story].join('\n  '),
      ),
    ).toEqual([]);
  });
});
