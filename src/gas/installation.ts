// How the script is installed: as an add-on (its triggers limited, §6 and §8) or bound to the spreadsheet.

/** Whether the script runs as an add-on: time-driven triggers at most hourly (apps-script-facts §6, §8). */
export function isAddOn(): boolean {
  try {
    return ScriptApp.getInstallationSource() !== ScriptApp.InstallationSource.NONE;
  } catch {
    return false;
  }
}
