// The bench's limit: a push counts the least reads its rules require, priced like every other wave.

import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../bench/options';
import { limitOf, limitSplit, rulesFloorOf } from '../../bench/report';
import type { ScenarioResult } from '../../bench/scenario';
import { COST_PROFILES } from '../../emulators/apps-script/costs';

const central = COST_PROFILES.central;
/** One fetchAll round of more than one request under `central`: 400 ms x 1.1. */
const ROUND = central.httpLatencyMs * central.fetchAllFactor;
/** A round of one request: one latency. */
const LONE = central.httpLatencyMs;

function scenario(kind: 'pull' | 'repull' | 'push', rows: number, edits = 0, creates = 0): ScenarioResult {
  return {
    spec: {
      name: 'test',
      kind,
      impl: 'ours',
      tableId: 't',
      rows,
      edits,
      creates,
      profile: 'central',
      costs: central,
    },
  } as ScenarioResult;
}

describe('limitOf, push', () => {
  it('reads the schema and every page when that costs less than a GET per edited row', () => {
    const limit = limitOf(scenario('push', 2_000, 100, 100), DEFAULTS);
    // 21 reads in waves of 10 (10, 10, 1): 3 rounds, against 100 GETs in 10 rounds.
    expect(limit.readBy).toBe('listing');
    expect(limit.readRequests).toBe(21);
    expect(limit.readMs).toBeCloseTo(2 * ROUND + LONE);
    // The last read wave's 9 free places carry 9 of the creates (a full round); 191 writes take 20.
    expect(limit.httpMs).toBeCloseTo(3 * ROUND + 19 * ROUND + LONE);
    expect(limit.requests).toBe(21 + 200);
  });

  it('reads the edited rows one by one when that costs less than the listing', () => {
    const limit = limitOf(scenario('push', 2_000, 2, 0), DEFAULTS);
    expect(limit.readBy).toBe('rows');
    expect(limit.readRequests).toBe(2);
    expect(limit.readMs).toBeCloseTo(ROUND);
    expect(limit.httpMs).toBeCloseTo(2 * ROUND);
  });

  it('creates ride in the row reads wave when there is room', () => {
    const limit = limitOf(scenario('push', 2_000, 2, 8), DEFAULTS);
    // 2 GETs + 8 POSTs fill one wave of 10; the 2 PATCHes follow in a second.
    expect(limit.httpMs).toBeCloseTo(ROUND + ROUND);
  });

  it('reads nothing when no line was edited (creates need no read)', () => {
    const limit = limitOf(scenario('push', 2_000, 0, 100), DEFAULTS);
    expect(limit.readBy).toBeUndefined();
    expect(limit.readRequests).toBe(0);
    expect(limit.httpMs).toBeCloseTo(10 * ROUND);
    expect(limitSplit(limit)).toBe('5.0: HTTP 4.4, Spreadsheet 0.6');
  });

  it('prints the reads apart', () => {
    expect(limitSplit(limitOf(scenario('push', 2_000, 100, 100), DEFAULTS))).toContain(
      'reads 1.3: 21 schema + listing pages',
    );
  });
});

describe('limitOf, pull', () => {
  it('counts the schema and every page in waves of --page-wave, and no push reads', () => {
    const limit = limitOf(scenario('pull', 10_000), DEFAULTS);
    expect(limit.requests).toBe(101);
    expect(limit.readRequests).toBe(0);
    expect(limit.httpMs).toBeCloseTo(10 * ROUND + LONE);
    expect(limitOf(scenario('pull', 10_000), { ...DEFAULTS, pageWave: 8 }).httpMs).toBeCloseTo(13 * ROUND);
  });
});

describe('rulesFloorOf, pulls', () => {
  it('adds to the physical limit each waiting call the sync rules require, named', () => {
    const first = scenario('pull', 1_000);
    const floor = rulesFloorOf(first, DEFAULTS);
    // The sheet by its id (2), the base found and made (2), the sheet read (1), the flush before the
    // lock is released (1): one chunk, so no re-identification.
    expect(floor?.waits.map((each) => [each.call, each.count])).toEqual([
      ['linked sheet and its id', 2],
      ['base sheet found', 1],
      ['base sheet made', 1],
      ['sheet read', 1],
      ['flush before unlock', 1],
    ]);
    expect(floor?.simulatedMs).toBeCloseTo(limitOf(first, DEFAULTS).simulatedMs + 6 * central.sheetWaitMs);
  });

  it('re-identifies the lines before every chunk after the first; a re-pull makes no base and reads no more', () => {
    const big = rulesFloorOf(scenario('pull', 100_000), DEFAULTS);
    expect(big?.waits.find((each) => each.call === 're-identification')?.count).toBe(5);
    const repull = rulesFloorOf(scenario('repull', 10_000), DEFAULTS);
    expect(repull?.waits.map((each) => each.call)).toEqual([
      'linked sheet and its id',
      'base sheet found',
      'flush before unlock',
    ]);
    expect(rulesFloorOf(scenario('push', 2_000, 100), DEFAULTS)).toBeUndefined();
  });
});
