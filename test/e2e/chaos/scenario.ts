// One seeded chaos scenario: a fresh emulator and simulator, random person/bob/sync steps under
// faults and killed executions (and, with `shared`, structure changes and work done while runs wait),
// a fault-free settle, then the oracle: no duplicates, no lost edits, sheet = service, no unintended writes.
// Its parts: setup.ts (the world and the person), steps.ts (the steps), runs.ts (syncs, resolutions,
// scheduled runs), settle.ts (the fault-free settle), invariants.ts and unintended-writes.ts (the oracle).
import { startEmulator } from '../../../emulators/table-service';
import { createRng } from '../../../emulators/table-service/rng';
import type { Figures } from './figures';
import { checkInvariants, type ScenarioOutcome } from './invariants';
import { checkOrphanTriggers, checkQuietPush, settleAfterSteps } from './settle';
import { type ScenarioOptions, setUpScenario } from './setup';
import { runSteps } from './steps';

export { type Figures, newFigures } from './figures';
export type { ScenarioOutcome } from './invariants';
export { mayInterrupt } from './runs';
export type { ScenarioOptions } from './setup';
export { unintendedWrites } from './unintended-writes';

export async function runScenario(
  seed: number,
  figures: Figures,
  options: ScenarioOptions,
): Promise<ScenarioOutcome> {
  const r = createRng(seed);
  // The invariants are stated for pulls that list the whole table (rows removed are marked at once).
  const emulator = await startEmulator({
    seed,
    poll: 'off',
    // The service's times follow the simulated clock (setup.ts keeps them in step): which rows share an
    // lMod (the person's id actions skip those) follows the seed, not the machine's millisecond.
    stampsFollowClock: true,
    ...(options.platform ? { platform: true as const } : {}),
  });
  try {
    const chaos = await setUpScenario(seed, r, emulator, figures, options);
    await runSteps(chaos);
    const allWrites = await settleAfterSteps(chaos);
    await checkQuietPush(chaos);
    checkOrphanTriggers(chaos);
    const outcome = await checkInvariants(chaos, allWrites);
    figures.scenarios++;
    return outcome;
  } finally {
    await emulator.close();
  }
}
