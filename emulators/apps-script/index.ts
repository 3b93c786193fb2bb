// Public entry of the Apps Script simulator: createSimulator and the types tests and the demo use.
import { AppsScriptSimulator, type SimulatorOptions } from './simulator';

export { ClientCallError } from './client-run';
export {
  COST_PROFILE_NAMES,
  COST_PROFILES,
  type CostModel,
  type CostOptions,
  type CostProfileName,
  httpWaveMs,
  resolveCosts,
  sheetCallKind,
} from './costs';
export { buttonsOf } from './html';
export type {
  ColumnRef,
  PersonActions,
  PersonEdit,
  SheetRef,
  WaitKind,
  WaitPoint,
  WaitSelector,
} from './person';
export type { AlertAnswer, AlertRecord, MailRecord, OpenAlert } from './runtime';
export { scopesFor, scopeTable } from './scopes';
export { ScriptSyntaxError } from './script-check';
export type {
  EditFiring,
  ExecutionResult,
  ExecutionStats,
  RunOptions,
  SimulatorOptions,
  SimulatorStats,
  TriggerInfo,
} from './simulator';
export type { SheetSnapshot } from './spreadsheet';
export {
  CONSUMER_TRIGGER_RUNTIME_MS,
  TRIGGER_RUNTIME_MESSAGE,
  WORKSPACE_TRIGGER_RUNTIME_MS,
} from './trigger-quota';
export {
  CONSUMER_URL_FETCH_DAILY,
  type FetchRequestInfo,
  URL_FETCH_DAILY_MESSAGE,
  WORKSPACE_URL_FETCH_DAILY,
} from './url-fetch';
export { AppsScriptSimulator };

/** Creates a simulator for `options.code` (default: the built dist/Code.js). Throws ScriptSyntaxError at load. */
export function createSimulator(options: SimulatorOptions = {}): AppsScriptSimulator {
  return new AppsScriptSimulator(options);
}
