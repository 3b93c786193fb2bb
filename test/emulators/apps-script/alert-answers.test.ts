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

  it('asks the person (answerAlert) when no answer is queued, with the time the execution is stopped at', () => {
    const sim = createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    const asked: Array<{ title: string; buttons: string; endsAt: number; at: number }> = [];
    sim.ui.alertAnswers = ['YES'];
    sim.ui.answerAlert = (alert) => {
      asked.push({ title: alert.title, buttons: alert.buttons, endsAt: alert.endsAt, at: alert.at });
      return { button: 'CLOSE', afterMs: 30_000 };
    };
    const [first, second, waited] = sim.run('ask').value as [string, string, number];
    // The queued answer goes first; the second alert waits for the person, who closes it (title bar).
    expect([first, second]).toEqual(['YES', 'CLOSE']);
    expect(asked).toEqual([{ title: 'Two', buttons: 'OK_CANCEL', endsAt: T0 + 360_000, at: T0 }]);
    expect(waited).toBeGreaterThanOrEqual(30_000);
  });

  it("refuses an answer the alert has no button for (a test's mistake shows)", () => {
    const sim = createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    sim.ui.alertAnswers = ['OK'];
    const result = sim.run('ask');
    expect(result.ok).toBe(false);
    expect(result.error?.message).toBe(
      'An alert with buttons YES_NO_CANCEL was answered OK: a person can press YES, NO, CANCEL, CLOSE',
    );
  });

  it('ends the execution when the person reads past its time', () => {
    const sim = createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    sim.ui.answerAlert = (alert) => ({ button: 'CLOSE', afterMs: alert.endsAt - alert.at + 1 });
    const result = sim.run('ask');
    expect(result.killed).toBe(true);
    expect(result.error?.message).toBe('Exceeded maximum execution time');
    expect(sim.ui.alerts).toHaveLength(1);
  });

  it('without answers, YES for a YES_NO set and OK otherwise, at once', () => {
    const sim = createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    const [first, second, waited] = sim.run('ask').value as [string, string, number];
    expect([first, second]).toEqual(['YES', 'OK']);
    expect(waited).toBeLessThan(1000);
  });
});
