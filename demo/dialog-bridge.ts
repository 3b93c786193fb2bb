// The add-on's dialogs in the playground, as in Sheets: an alert holds its run until the person
// answers on the page. The run is synchronous script code on this thread, so the thread blocks
// (Atomics.wait) while the page server's thread, which never runs script code, shows the dialog and
// writes the pressed button into memory both threads share.

/** The buttons of Ui.Button, by the number the page server's thread writes for each. */
export const DIALOG_BUTTONS: readonly string[] = ['OK', 'CANCEL', 'YES', 'NO', 'CLOSE'];

/** A dialog as the page shows it: its own buttons (and CLOSE, the title bar's), in the set's order. */
export interface PageDialog {
  id: number;
  title: string;
  prompt: string;
  buttons: string[];
}

/** Slot 0: the id of the dialog answered last; slot 1: the button pressed (an index of DIALOG_BUTTONS). */
const ANSWERED_ID = 0;
const ANSWERED_BUTTON = 1;

/** The main thread's side: shows a dialog through `show`, then waits for the page's answer. */
export class DialogBridge {
  /** Shared with the page server's thread, which answers through {@link answerDialog}. */
  readonly memory = new SharedArrayBuffer(8);
  private readonly slots = new Int32Array(this.memory);
  private nextId = 1;

  /**
   * Shows the dialog and blocks this thread until the page answers it or `limitMs` of real time
   * passes; `show(null)` takes it off the page either way. Returns the button, or null when none came.
   */
  ask(
    dialog: Omit<PageDialog, 'id'>,
    limitMs: number,
    show: (dialog: PageDialog | null) => void,
  ): string | null {
    const id = this.nextId++;
    Atomics.store(this.slots, ANSWERED_ID, 0);
    show({ id, ...dialog });
    const deadline = Date.now() + limitMs;
    try {
      for (;;) {
        const answered = Atomics.load(this.slots, ANSWERED_ID);
        if (answered === id) return DIALOG_BUTTONS[Atomics.load(this.slots, ANSWERED_BUTTON)] ?? null;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        Atomics.wait(this.slots, ANSWERED_ID, answered, Math.min(left, 60_000));
      }
    } finally {
      show(null);
    }
  }
}

/**
 * Source of the page server thread's side (CommonJS, spliced into its worker): `answerDialog(memory,
 * open, answer)` records the button the page sent for the open dialog and wakes the waiting run;
 * it returns an error sentence when the answer does not fit the dialog open now.
 */
export const ANSWER_DIALOG_SOURCE = `
function answerDialog(memory, open, answer) {
  const buttons = ${JSON.stringify(DIALOG_BUTTONS)};
  if (!open || !answer || answer.id !== open.id) return 'This question is no longer open: its run has ended.';
  if (!open.buttons.includes(answer.button)) return 'This question has no button ' + String(answer.button) + '.';
  const slots = new Int32Array(memory);
  Atomics.store(slots, ${ANSWERED_BUTTON}, buttons.indexOf(answer.button));
  Atomics.store(slots, ${ANSWERED_ID}, open.id);
  Atomics.notify(slots, ${ANSWERED_ID});
  return null;
}
`;
