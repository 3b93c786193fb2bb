// What the playground says when its clock jumps (Advance) or follows real time: how the scheduled runs that fired ended (a failure reads
// as one), a schedule that paused itself meanwhile, and the mails the add-on sent.
import type { ExecutionResult } from '../emulators/apps-script/index';

/** How one fired run ended. */
export interface RunOutcome {
  outcome: 'succeeded' | 'failed' | 'skipped';
  /** The add-on's own words for it (its summary's message, or the execution's error). */
  message: string;
}

/** What the page shows: the sentence, and whether it reads as a failure (red). */
export interface AdvanceReport {
  said: string;
  failed: boolean;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * How each fired run ended: an execution that failed (or was refused by a quota), else the add-on's
 * summaries (the trigger handler returns one per link it served; a run with a failed one failed).
 */
export function outcomesOf(results: readonly ExecutionResult[]): RunOutcome[] {
  return results.map((result) => {
    if (!result.ok) return { outcome: 'failed', message: result.error?.message ?? 'the run failed' };
    const summaries = Array.isArray(result.value)
      ? (result.value as Array<{ ok?: unknown; skipped?: unknown; message?: unknown }>)
      : [];
    const failed = summaries.find((summary) => summary.ok === false && summary.skipped !== true);
    if (failed) return { outcome: 'failed', message: String(failed.message ?? '') };
    const last = summaries.at(-1);
    const skipped = summaries.length > 0 && summaries.every((summary) => summary.skipped === true);
    return { outcome: skipped ? 'skipped' : 'succeeded', message: String(last?.message ?? '') };
  });
}

function countsSaid(outcomes: readonly RunOutcome[]): string {
  const count = (kind: RunOutcome['outcome']) => outcomes.filter((each) => each.outcome === kind).length;
  const [succeeded, failed, skipped] = [count('succeeded'), count('failed'), count('skipped')];
  const fired = `${plural(outcomes.length, 'scheduled run')} fired`;
  const all = (n: number, what: string) =>
    outcomes.length === 1 ? `${fired} and ${what}` : `${fired}, all ${n} ${what}`;
  if (succeeded === outcomes.length) return all(succeeded, 'succeeded');
  if (failed === outcomes.length) return all(failed, 'failed');
  const parts = [
    succeeded ? `${succeeded} succeeded` : '',
    failed ? `${failed} failed` : '',
    skipped ? `${skipped} skipped (another sync was running)` : '',
  ];
  return `${fired}: ${parts.filter(Boolean).join(', ')}`;
}

/**
 * The sentence of one jump of the clock: `lead` says which ("Advanced 1 hour"), `paused` names the
 * sheets whose schedule paused itself meanwhile, `mails` counts the mails sent meanwhile.
 */
export function advanceReport(
  lead: string,
  outcomes: readonly RunOutcome[],
  paused: readonly string[],
  mails: number,
): AdvanceReport {
  if (outcomes.length === 0 && mails === 0)
    return { said: `${lead}: no scheduled run was due.`, failed: false };
  const sentences = [`${lead}: ${outcomes.length ? countsSaid(outcomes) : 'no scheduled run was due'}.`];
  const lastFailure = outcomes.filter((each) => each.outcome === 'failed').at(-1);
  if (lastFailure) sentences.push(`The last failure said: “${lastFailure.message}”`);
  for (const sheet of paused)
    if (!lastFailure?.message.includes('paused'))
      sentences.push(
        `The schedule of "${sheet}" paused itself: resume it in the sidebar once the cause is fixed.`,
      );
  if (mails > 0) sentences.push(`${plural(mails, 'mail')} sent: see the Outbox.`);
  return { said: sentences.join(' '), failed: lastFailure !== undefined || paused.length > 0 };
}
