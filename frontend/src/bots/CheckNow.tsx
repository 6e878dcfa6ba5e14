import { useEffect, useRef, useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { describeError, request } from '../api/http';
import { describeEvent, ordered, type HistoryEvent } from '../history/events';

/** The watchdog's events (docs/watchdog.md): what a check records when the exchange differs. */
const FINDINGS = new Set(['BotDriftDetected', 'BotNotTrading']);

type Outcome =
  | { kind: 'idle' }
  | { kind: 'asking' }
  | { kind: 'waiting'; requestedAt: number }
  | { kind: 'done'; requestedAt: number; found: HistoryEvent[]; earlier: HistoryEvent[] }
  | { kind: 'error'; message: string };

/** The run's findings (after its latest start request), split at the check's request time. */
function findings(events: HistoryEvent[], requestedAt: number): { found: HistoryEvent[]; earlier: HistoryEvent[] } {
  const start = events.map((e) => e.type).lastIndexOf('BotStartRequested');
  const run = events.slice(start + 1).filter((e) => FINDINGS.has(e.type));
  const at = (e: HistoryEvent) => Number((e.data as { at?: number } | null)?.at ?? Date.parse(e.created));
  return { found: run.filter((e) => at(e) >= requestedAt), earlier: run.filter((e) => at(e) < requestedAt) };
}

/**
 * "Check now" (issue 29): asks the runner to compare the bot with the exchange at once
 * (`POST /api/bots/{id}/check`), then reads the bot's history a few times for what the check recorded.
 * The check records only differences (a lasting one once per run), so the outcome says what was recorded
 * since the request, and lists what earlier checks of this run found.
 */
export function CheckNow({ botId, pollMs = 1500, polls = 8 }: { botId: string; pollMs?: number; polls?: number }) {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const check = async () => {
    setOutcome({ kind: 'asking' });
    const asked = await request<{ requested: boolean; requestedAt: number }>({ url: `/api/bots/${encodeURIComponent(botId)}/check`, method: 'POST' });
    if (!alive.current) return;
    if (asked.error) return setOutcome({ kind: 'error', message: describeError(asked.error) });
    const requestedAt = asked.data.requestedAt;
    setOutcome({ kind: 'waiting', requestedAt });
    let last = { found: [] as HistoryEvent[], earlier: [] as HistoryEvent[] };
    for (let i = 0; i < polls; i++) {
      await new Promise((r) => setTimeout(r, pollMs));
      if (!alive.current) return;
      const history = await request<unknown>({ url: `/api/bots/${encodeURIComponent(botId)}/history` });
      if (!alive.current) return;
      if (history.error) continue;
      last = findings(ordered(history.data), requestedAt);
      if (last.found.length > 0) break;
    }
    setOutcome({ kind: 'done', requestedAt, ...last });
  };

  const busy = outcome.kind === 'asking' || outcome.kind === 'waiting';
  return (
    <div className="checknow" data-testid="check-now">
      <button type="button" className="btn btn--ghost" onClick={() => void check()} disabled={busy} title="Compare the bot’s orders and position with the exchange now">
        <ShieldCheck size={16} aria-hidden="true" /> {busy ? 'Checking…' : 'Check now'}
      </button>
      <div role="status" aria-live="polite" className="checknow__outcome">
        {outcome.kind === 'waiting' ? <p className="muted">Comparing the bot with the exchange…</p> : null}
        {outcome.kind === 'error' ? <p className="form-error">{outcome.message}</p> : null}
        {outcome.kind === 'done' ? <CheckOutcome found={outcome.found} earlier={outcome.earlier} /> : null}
      </div>
    </div>
  );
}

function CheckOutcome({ found, earlier }: { found: HistoryEvent[]; earlier: HistoryEvent[] }) {
  const list = (events: HistoryEvent[], label: string) => (
    <ul aria-label={label}>
      {events.map((e) => (
        <li key={e.id}>{describeEvent(e)}</li>
      ))}
    </ul>
  );
  return (
    <div className="notice" role="note">
      {found.length > 0 ? (
        <>
          <strong>Checked: {found.length === 1 ? '1 difference' : `${found.length} differences`} found</strong>
          {list(found, 'Differences found by the check')}
        </>
      ) : (
        <strong>No new differences recorded since the check was asked for</strong>
      )}
      {earlier.length > 0 ? (
        <>
          <p>Found earlier in this run (each is recorded once):</p>
          {list(earlier, 'Differences found earlier in this run')}
        </>
      ) : found.length === 0 ? (
        <p className="muted">None were found earlier in this run either. The history lists every check and what it found.</p>
      ) : null}
    </div>
  );
}
