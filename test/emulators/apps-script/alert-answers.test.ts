// The person's answers to Ui.alert, scripted in order: which button, and how long they read first
// (an alert suspends the script while the execution's time runs on).
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);
const code = `function ask() {
  var ui = SpreadsheetApp.getUi();
  var started = Date.now();
  var first = ui.alert('One', 'Sure?', ui.ButtonSet.YES_NO_CANCEL);
  var second = ui.alert('Two', 'Really?', ui.ButtonSet.OK_CANCEL);
  return [String(first), String(second), Date.now() - started];
}`;

describe('scripted alert answers', () => {
  it('answer each alert in order, after the time the person took', () => {
    const sim = createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    sim.ui.alertAnswers = ['NO', { button: 'CANCEL', afterMs: 90_000 }];
    const [first, second, waited] = sim.run('ask').value as [string, string, number];
    expect([first, second]).toEqual(['NO', 'CANCEL']);
    expect(waited).toBeGreaterThanOrEqual(90_000);
    expect(sim.ui.alertAnswers).toEqual([]);
  });

  it('without answers, YES for a YES_NO set and OK otherwise, at once', () => {
    const sim = createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    const [first, second, waited] = sim.run('ask').value as [string, string, number];
    expect([first, second]).toEqual(['YES', 'OK']);
    expect(waited).toBeLessThan(1000);
  });
});
