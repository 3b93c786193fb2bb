// What a person does to the playground's grid besides typing into a cell, as in Sheets: paste a block
// of tab-separated lines, Data › Sort (a sheet or a selected range, one column alone included), insert
// and delete rows and columns, clear a cell, and Undo the last of these (issue 26, point 9: the README
// warns about each, so a person must be able to try them here). Undo follows the lines a step changed
// (issue 35): the add-on may have removed lines above them since.
import type { AppsScriptSimulator } from '../emulators/apps-script/index';
import { GridActionRefused, type GridStep, STEPS, typedStep } from './grid-steps';
import { UndoRefused } from './undo-lines';

export { parseClipboard } from './clipboard';
export { GridActionRefused, MAX_PASTE_CELLS } from './grid-steps';

/** Undo steps kept (the oldest go first). */
const UNDO_DEPTH = 50;

/** One grid action as the page sends it. */
export type GridAction =
  | { action: 'paste'; sheetId: number; row: number; col: number; text: string }
  | { action: 'sortSheet'; sheetId: number; col: number; ascending: boolean }
  | { action: 'sortRange'; sheetId: number; range: string; col: number; ascending: boolean }
  | { action: 'insertRows'; sheetId: number; before: number; count: number }
  | { action: 'deleteRows'; sheetId: number; row: number; count: number }
  | { action: 'insertColumns'; sheetId: number; before: number; count: number }
  | { action: 'deleteColumns'; sheetId: number; col: number; count: number }
  | { action: 'clear'; sheetId: number; row: number; col: number }
  | { action: 'undo' };

/** The playground's grid actions over the current simulator, with their Undo history. */
export class GridActions {
  private steps: GridStep[] = [];

  constructor(private readonly simulator: () => AppsScriptSimulator) {}

  /** Forgets the Undo history (a fresh spreadsheet). */
  clear(): void {
    this.steps = [];
  }

  /** Runs one action; returns what happened, in a sentence for the page. */
  run(request: GridAction): string {
    if (request.action === 'undo') return this.undo();
    const sim = this.simulator();
    if (!sim.spreadsheet.getSheetById(request.sheetId))
      throw new GridActionRefused('That sheet is gone: pick a tab below the grid.');
    if (!Object.prototype.hasOwnProperty.call(STEPS, request.action))
      throw new GridActionRefused(`The playground has no grid action ${String(request.action)}.`);
    const act = STEPS[request.action] as (sim: AppsScriptSimulator, request: GridAction) => GridStep;
    const step = act(sim, request);
    this.remember(step);
    return step.said;
  }

  /** Records a typed cell so Undo can put its previous content back on its line. */
  typed(sheetId: number, row: number, col: number, edit: () => void): void {
    const sim = this.simulator();
    if (!sim.spreadsheet.getSheetById(sheetId)) {
      edit();
      return;
    }
    this.remember(typedStep(sim, sheetId, row, col, edit));
  }

  private remember(step: GridStep): void {
    this.steps.push(step);
    if (this.steps.length > UNDO_DEPTH) this.steps.shift();
  }

  /** Undoes the last step where its lines are now; one it cannot place is dropped, touching nothing. */
  private undo(): string {
    const step = this.steps.pop();
    if (!step) return 'Nothing to undo.';
    try {
      return `Undone: ${step.said.replace(/\.$/, '')}${step.undo()}.`;
    } catch (error) {
      if (error instanceof UndoRefused) throw new GridActionRefused(error.message);
      throw error;
    }
  }
}
