// The fast interleaving chaos mode: seeded small scenarios (10-30 rows, Ann and Bob with their own
// keys, edits on both sides, a service fault now and then), one pull, push or sync with a person
// acting before its k-th port call, then a final sync; invariants checked after each. INTERLEAVINGS
// sets how many run (default small enough for CI), INTERLEAVINGS_SEED the first seed, and
// INTERLEAVINGS_EVERY=1 runs every k of each scenario instead of a sample.
import { beforeAll, describe, expect, it } from 'vitest';
import { callsOf, randomOf, runInterleaving } from './interleavings';

const COUNT = Number(process.env.INTERLEAVINGS ?? 200);
const FIRST_SEED = Number(process.env.INTERLEAVINGS_SEED ?? 1);
const EVERY = process.env.INTERLEAVINGS_EVERY === '1';
/** Points sampled per scenario (unless EVERY): more scenarios, each seen at a few moments. */
const POINTS_PER_SCENARIO = 8;

interface Found {
  seed: number;
  point: number;
  violation: string;
  story: string[];
}

/**
 * Bugs pinned by a minimal failing case (`it.fails`), and how their violations read here. A violation
 * matching none is new.
 */
const KNOWN: Array<{ bug: string; matches(found: Found): boolean }> = [
  {
    bug: 'a cell typed while a pull updates it is recorded as agreed (run-pull.test.ts: "the line is a conflict")',
    matches: (found) =>
      /lost: Bob's .* overwritten by .* unseen/.test(found.violation) &&
      /run: (pull|sync)/.test(found.story.join('\n')) &&
      !/person renames header/.test(found.story.join('\n')),
  },
  {
    bug: 'a pull that could not write its lines records the base as agreed anyway (run-pull.test.ts: "renamed back")',
    matches: (found) =>
      /lost: Bob's .* overwritten by .* unseen/.test(found.violation) &&
      /person renames header/.test(found.story.join('\n')),
  },
  {
    bug: 'a POST committed then answered 503 or 2xx with an error body is sent again (run-push.test.ts)',
    matches: (found) =>
      /duplicate: \d+ service rows titled/.test(found.violation) &&
      /service fault: post (503-after-commit|error-body)/.test(found.story.join('\n')),
  },
  {
    // Left pending by a lost answer, or by a header renamed before the created ids were written.
    bug: 'a create left pending under one key is sent again by a push under another key (run-push.test.ts)',
    matches: (found) =>
      /duplicate: \d+ service rows titled/.test(found.violation) &&
      /service fault: post lost|person renames header/.test(found.story.join('\n')) &&
      /run: (push|sync) as u-bob/.test(found.story.join('\n')),
  },
];

const found: Found[] = [];
let interleavings = 0;
let scenarios = 0;

describe(`interleavings of a person with a pull, push or sync (${COUNT}, from seed ${FIRST_SEED})`, () => {
  beforeAll(() => {
    const started = Date.now();
    for (let seed = FIRST_SEED; interleavings < COUNT; seed++) {
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
    const byBug = KNOWN.map(({ bug, matches }) => `\n  known: ${found.filter(matches).length} × ${bug}`);
    console.log(
      `${interleavings} interleavings of ${scenarios} scenarios in ${Date.now() - started} ms; ${found.length} violations`,
      ...[...byKind].map(([kind, count]) => `\n  ${count} × ${kind}`),
      ...byBug,
    );
  }, 3_600_000);

  it('ran the interleavings asked for', () => {
    expect(interleavings).toBe(COUNT);
  });

  // Fails while the known bugs above stand (each pinned by a minimal case): drop `.fails` once they
  // are fixed. The next test keeps any other violation from passing unseen meanwhile.
  it.fails('no interleaving leaves a duplicate row, a lost edit or a value nobody typed', () => {
    expect(found.map(({ seed, point, violation }) => `seed ${seed}, call ${point}: ${violation}`)).toEqual(
      [],
    );
  });

  it('every violation found is one of the known bugs', () => {
    const unknown = found.filter((each) => !KNOWN.some((known) => known.matches(each)));
    expect(
      unknown.map((each) =>
        [`seed ${each.seed}, call ${each.point}: ${each.violation}`, ...each.story].join('\n  '),
      ),
    ).toEqual([]);
  });
});
