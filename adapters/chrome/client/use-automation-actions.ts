import { useState } from 'react';
import { armResult, type Automation, type ListedRun } from './automation-shapes.js';
import { armedInWords } from './automation-words.js';
import type { Notice } from './page.js';
import { announceApprovalsChanged } from './page-events.js';
import { navigate } from './route.js';
import { startedRun } from './run-shapes.js';
import { deleteWithUndo } from './undo.js';
import { describeError, wire } from './wire.js';

/** A notice of the automations page: with Approvals offered when arming waits for permissions. */
export type AutomationsNotice = Notice & { approvals?: boolean };

/**
 * What the automations page does to an automation or a run: arm, disarm, delete (with undo), stop
 * a run (each said in `notice`, then the lists reloaded), and Run now and Dry run, which open the
 * run they started (`trying` names the automation starting one, so the others wait).
 */
export function useAutomationActions(reload: () => void) {
  const [notice, setNotice] = useState<AutomationsNotice | null>(null);
  const [trying, setTrying] = useState<string | null>(null);

  const act = async (run: () => Promise<AutomationsNotice | null>) => {
    setNotice(null);
    try {
      setNotice(await run());
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    }
    reload();
  };
  const arm = (a: Automation) =>
    act(async () => {
      const result = await wire('POST', `/automations/${encodeURIComponent(a.id)}/arm`, { body: {}, schema: armResult });
      if (result.asks.length > 0) announceApprovalsChanged();
      return { tone: 'info', ...armedInWords(a.name, result.asks) };
    });
  const disarm = (a: Automation) =>
    act(async () => {
      await wire('POST', `/automations/${encodeURIComponent(a.id)}/disarm`, { body: {} });
      return { tone: 'info', text: `“${a.name}” is disarmed.` };
    });
  const remove = (a: Automation) =>
    act(async () => {
      await deleteWithUndo('automation', a.id);
      return null;
    });
  const dryRun = async (a: Automation) => {
    setTrying(a.id);
    setNotice(null);
    try {
      const tried = await wire('POST', `/automations/${encodeURIComponent(a.id)}/dry-run`, { body: {}, schema: startedRun });
      navigate({ name: 'run', runId: tried.id });
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    } finally {
      setTrying(null);
    }
  };
  const runNow = async (a: Automation) => {
    setTrying(a.id);
    setNotice(null);
    try {
      const started = await wire('POST', `/automations/${encodeURIComponent(a.id)}/run`, { body: {}, schema: startedRun });
      navigate({ name: 'run', runId: started.id });
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
      setTrying(null);
    }
  };
  const stop = (r: ListedRun) =>
    act(async () => {
      await wire('POST', `/runs/${encodeURIComponent(r.id)}/stop`, { body: {} });
      return { tone: 'info', text: 'Stopping: the current step finishes, then the run ends.' };
    });

  return { notice, setNotice, trying, arm, disarm, remove, dryRun, runNow, stop };
}
