// Chaos under the platform's limits: a few seeded scenarios (./chaos/scenario.ts) against a service in
// the emulator's platform mode (60 requests a minute, 1,800 an hour, 429 without Retry-After, its
// error bodies; windows on the simulated clock), on top of the usual faults and killed executions.
// The same oracle holds: nothing lost, nothing created twice, sheet = service, no unintended writes;
// and the pace keeps refused requests rare. More: CHAOS_PLATFORM=1 npm run chaos (docs/chaos.md).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newFigures, runScenario } from './chaos/scenario';

const SEEDS = [20240105, 20240106, 20240107];
const CODE = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/Code.js'),
  'utf8',
);

describe('chaos under the platform’s limits on requests', () => {
  it('seeded scenarios converge with nothing lost, doubled or unintended, and few refused requests', async () => {
    const figures = newFigures();
    const problems: string[] = [];
    for (const seed of SEEDS) {
      const outcome = await runScenario(seed, figures, {
        code: CODE,
        shared: true,
        trace: false,
        platform: true,
      });
      for (const v of [...outcome.violations, ...outcome.duplicated, ...outcome.unintended])
        problems.push(
          `seed ${seed}: ${v} (replay: CHAOS_SEED=${seed} CHAOS_SCENARIOS=1 CHAOS_PLATFORM=1 npx vitest run test/e2e/chaos.test.ts)`,
        );
    }
    console.log(`chaos figures under the platform's limits:\n${JSON.stringify(figures, null, 2)}`);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(figures.lostEdits).toBe(0);
    expect(figures.duplicates).toBe(0);
    expect(figures.unintendedWrites).toBe(0);
    // The limits were met: another client filled the window, and some runs stopped to wait for them.
    expect(figures.otherClientBursts).toBeGreaterThan(0);
    expect(figures.rateLimitedRuns).toBeGreaterThan(0);
    // Refused requests of the add-on: one per scenario to learn the limits at most, and per burst of
    // another client of the key (which its pace cannot see) one wave (10) plus the doubling rounds
    // after the pause that meet the window still full (1 and 2): 13.
    expect(figures.refusedByLimit).toBeLessThanOrEqual(SEEDS.length + 13 * figures.otherClientBursts);
  }, 120_000);
});
