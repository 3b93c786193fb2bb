// The page's feedback and pacing: the status line, the error box, one action at a time.
import { byId, el, setMessage, show } from './dom';

const app = byId('app');
const status = byId('status');
const errorBox = byId('error');

let busy = false;

export function say(text: string): void {
  status.textContent = text;
}

export function fail(what: string, error: unknown): void {
  // Apps Script may prefix a thrown error's class name ("Error: …", "Exception: …"); the rest is for the person.
  const message = (error instanceof Error ? error.message : String(error)).replace(
    /^(?:Exception|[A-Z]\w*Error):\s+/,
    '',
  );
  errorBox.textContent = '';
  errorBox.append(el('strong', {}, `${what}. `));
  setMessage(errorBox, message);
  show(errorBox, true);
  say('');
}

function clearError(): void {
  errorBox.textContent = '';
  show(errorBox, false);
}

/** Runs one step of an action: a status line while it runs, its failure shown to the person. */
export async function step<T>(label: string, what: string, action: () => Promise<T>): Promise<T | undefined> {
  clearError();
  say(label);
  try {
    return await action();
  } catch (error) {
    fail(what, error);
    return undefined;
  }
}

/** An action runs: every button is disabled until it is done. */
export function isBusy(): boolean {
  return busy;
}

function setBusy(value: boolean): void {
  busy = value;
  app.setAttribute('aria-busy', String(value));
  app.querySelectorAll('button').forEach((button) => {
    button.disabled = value;
  });
}

/** Wraps a handler so one action runs at a time, with every button disabled until it is done. */
export function guarded<E extends Event>(handler: (event: E) => Promise<void>): (event: E) => void {
  return (event) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    setBusy(true);
    handler(event)
      .catch((error: unknown) => fail('Something went wrong', error))
      .finally(() => setBusy(false));
  };
}

/** Runs `handler`, guarded, on each `type` event of the element with this id. */
export function on(id: string, type: string, handler: (event: Event) => Promise<void>): void {
  byId(id).addEventListener(type, guarded(handler));
}
