// Whose key acts: how the add-on is installed decides who can change the code that runs with a
// person's API key. In a script bound to the spreadsheet every editor can edit that code, and an
// installable trigger runs it as the person who created the trigger (apps-script-facts §12).
import type { KeySafety } from '../shared/types';

/** How Apps Script runs this code for the current person: 'bound' script or installed 'addon'. */
export function installation(): 'bound' | 'addon' {
  try {
    return ScriptApp.getInstallationSource() === ScriptApp.InstallationSource.NONE ? 'bound' : 'addon';
  } catch {
    return 'bound';
  }
}

/** The plain warning shown where a person saves a key or a schedule in a bound script. */
export const BOUND_SCRIPT_WARNING =
  'This copy of Table App Sync is a script bound to this spreadsheet: every editor of the spreadsheet can change its code, and changed code runs with your API key when you use the sidebar or when your schedule runs. Save your key here only if nobody else can edit this spreadsheet. For a shared spreadsheet, install Table App Sync as an add-on instead (a test deployment, or publishing it privately to your domain): add-on code cannot be edited by the spreadsheet’s editors.';

/** What the sidebar needs to say about key safety here. */
export function keySafety(): KeySafety {
  const how = installation();
  return { installation: how, warning: how === 'bound' ? BOUND_SCRIPT_WARNING : null };
}
