// The Apps Script entry: every export becomes a top-level function of dist/Code.js (menus,
// triggers and google.script.run call these names). Logic lives in src/gas, src/api and src/core.
export {
  keepEditingHeld,
  pullActiveSheet,
  pullEverything,
  pushActiveSheet,
  putBackHeld,
  resolveConflicts,
  syncActiveSheet,
} from './gas/actions';
export { getConflicts } from './gas/conflicts';
export { connectFromSidebar } from './gas/connect-answer';
export { disconnect, getConnection, saveConnection } from './gas/connection';
export {
  linkActiveSheet,
  listTableApps,
  listTables,
  setLinkOptions,
  unlinkActiveSheet,
} from './gas/link';
export { onLiveEdit } from './gas/live';
export { checkForChanges } from './gas/live-check';
export { importAccountMembers, menuImportMembers } from './gas/members';
export {
  bringBackMissingRows,
  deleteMissingRows,
  getMissingRowsReview,
  getRemovedLinesReview,
  removeLinesOfRemovedRows,
} from './gas/review';
export { planLiveSync, setAccountKind } from './gas/quota';
export { clearSchedule, getSchedule, resumeSchedule, runScheduledSync, setSchedule } from './gas/schedule';
export { menuSelfCheck, runSelfCheck } from './gas/self-check';
export {
  getState,
  menuHelp,
  menuPull,
  menuPullEverything,
  menuPush,
  menuResolveTheirs,
  menuSync,
  onInstall,
  onOpen,
  selectSheetRow,
  showSidebar,
} from './gas/ui';
