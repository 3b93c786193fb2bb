// The pace of requests to the service, kept in the person's user properties across executions (the
// limits are per key, and the key is the person's): what the client learnt of the service's rolling
// windows and what it sent in them, so a continuation a minute later never goes past them.
import type { ClientOptions } from '../api/client';
import { Pacer, paceStateOf } from '../api/pace';
import { isAddOn } from './installation';

const PACE_KEY = 'servicePace';
/**
 * Where a continuation trigger can carry an operation on, a wait longer than this for the service's
 * windows ends the execution instead (saved, continued later): a new execution costs less than
 * minutes of an execution spent asleep holding the document lock. Shorter waits are slept.
 */
export const PACE_SLEEP_WITH_CONTINUATIONS_MS = 5_000;
/** Believed unlimited, the state is saved at most this often (its counts matter little then). */
const SAVE_EVERY_MS = 30_000;

interface StoredPace {
  baseUrl: string;
  state: unknown;
}

function readStored(): StoredPace | null {
  const text = PropertiesService.getUserProperties().getProperty(PACE_KEY);
  if (text === null) return null;
  try {
    return JSON.parse(text) as StoredPace;
  } catch {
    return null;
  }
}

/**
 * The pace options of a client for `baseUrl`: its pacer from the kept state (fresh for another
 * address), how long it may sleep for the windows (briefly where continuations carry a run on; as
 * long as the run's time allows in an add-on, where the next run is the person's), and the saving of
 * its state after every round (one property write per fetchAll): a count missed here would let the
 * next execution go past the limits. Only once the service is believed unlimited is it saved less often.
 */
export function paceFor(baseUrl: string): NonNullable<ClientOptions['pace']> {
  const stored = readStored();
  const pacer = new Pacer(stored && stored.baseUrl === baseUrl ? paceStateOf(stored.state) : null);
  let savedAt = 0;
  let savedMode = pacer.mode;
  return {
    pacer,
    maxSleepMs: isAddOn() ? Number.POSITIVE_INFINITY : PACE_SLEEP_WITH_CONTINUATIONS_MS,
    onChange: () => {
      const now = Date.now();
      if (pacer.mode === 'unlimited' && pacer.mode === savedMode && now - savedAt < SAVE_EVERY_MS) return;
      savedAt = now;
      savedMode = pacer.mode;
      const value: StoredPace = { baseUrl, state: pacer.state(now) };
      PropertiesService.getUserProperties().setProperty(PACE_KEY, JSON.stringify(value));
    },
  };
}
