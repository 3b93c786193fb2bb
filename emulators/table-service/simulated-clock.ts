// Keeps the emulator's rate-limit clock on the Apps Script simulator's clock: before every fetch of an
// execution, the admin /clock is set to the simulated time (synchronously, as the execution waits
// there), so a simulated minute is a minute for platform mode's rolling windows. Used as the
// simulator's `onBeforeFetch` by tests and benchmarks (it runs in the simulator's process).
import { sendSync } from '../apps-script/http-worker';

/** An `onBeforeFetch` for the simulator: sets the emulator's clock at `url` to `now()` before each fetch. */
export function followSimulatedClock(url: () => string, now: () => number): () => void {
  return () => {
    const target = `${url()}/__admin/clock`;
    const [answer] = sendSync(
      [
        {
          url: target,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new TextEncoder().encode(JSON.stringify({ nowMs: now() })),
          followRedirects: false,
          validateHttpsCertificates: false,
          timeoutMs: 10_000,
          maxBytes: 1 << 20,
        },
      ],
      1,
      [new URL(target).hostname],
    );
    if (!answer?.ok || answer.status !== 200)
      throw new Error(`The emulator's clock was not set (${target}).`);
  };
}
