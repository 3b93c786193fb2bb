// A person scripted inside the playground page, for the tests of the add-on's dialogs. A dialog holds
// its run, and the run holds this test's thread (the simulator runs the add-on synchronously), so
// Playwright cannot click while a dialog is open: the person lives in the page instead, sees each
// dialog as it opens and clicks its real button, in Chromium.
import type { Page } from 'playwright-core';

/** What a dialog showed when it opened, and what the page said meanwhile. */
export interface ShownDialog {
  title: string;
  prompt: string;
  /** The labels of its buttons, in order (the title bar's close button apart). */
  buttons: string[];
  /** Whether the title bar has its close button. */
  closable: boolean;
  /** The playground's status line as the dialog opened (a run under way says "Running …"). */
  status: string;
  /** The toast shown as the dialog opened, if any. */
  toast: string | null;
  /** The cells of the grid's first column as the dialog opened, by line. */
  firstColumn: string[];
}

/**
 * From now on, the person answers the next dialogs by pressing these buttons (by label; 'Close' is
 * the title bar's ✕), one each, and records what each showed. A dialog left without an answer stays
 * open.
 */
export async function answerDialogs(page: Page, labels: string[]): Promise<void> {
  await page.evaluate((answers) => {
    const shown: ShownDialog[] = [];
    (window as unknown as { shownDialogs: ShownDialog[] }).shownDialogs = shown;
    const box = document.getElementById('alert-dialog') as HTMLDialogElement;
    const seen = new Set<string>();
    const text = (selector: string): string => document.querySelector(selector)?.textContent ?? '';
    new MutationObserver(() => {
      const id = box.getAttribute('data-dialog-id');
      if (!box.open || id === null || seen.has(id)) return;
      seen.add(id);
      const buttons = Array.from(box.querySelectorAll<HTMLButtonElement>('#alert-buttons button'));
      const toastBox = document.getElementById('toast-box') as HTMLElement;
      shown.push({
        title: text('#alert-title'),
        prompt: text('#alert-prompt'),
        buttons: buttons.map((button) => button.textContent ?? ''),
        closable: box.querySelector('#alert-close') !== null,
        status: text('#tool-result'),
        toast: toastBox.hidden ? null : text('#toast'),
        firstColumn: Array.from(document.querySelectorAll('#grid tbody tr')).map(
          (row) => row.querySelector('td')?.textContent ?? '',
        ),
      });
      const label = answers.shift();
      if (label === undefined) return;
      const press =
        label === 'Close'
          ? box.querySelector<HTMLButtonElement>('#alert-close')
          : buttons.find((button) => button.textContent === label);
      press?.click();
    }).observe(box, { attributes: true, attributeFilter: ['open', 'data-dialog-id'] });
  }, labels);
}

/** The dialogs the person has seen since {@link answerDialogs}, in order. */
export function shownDialogs(page: Page): Promise<ShownDialog[]> {
  return page.evaluate(() => (window as unknown as { shownDialogs?: ShownDialog[] }).shownDialogs ?? []);
}
