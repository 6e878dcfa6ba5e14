import { useEffect, useRef, useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { apiPath, type Answer } from '../api/contract';
import { describeError, request } from '../api/http';
import { describeEvent, ordered, type HistoryEvent } from '../history/events';

/** The watchdog's events (docs/watchdog.md): what a check records when the exchange differs. */
const FINDINGS = new Set(['BotDriftDetected', 'BotNotTrading']);

type Outcome =
  | { kind: 'idle' }
  | { kind: 'asking' }
  | { kind: 'waiting'; requestedAt: number }
  /** `count`: what the runner's report (BotChecked) says the check found; null: no report yet. */
  | { kind: 'done'; requestedAt: number; count: number | null; found: HistoryEvent[]; earlier: HistoryEvent[] }
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
 * (`POST /api/bots/{id}/check`), then reads the bot's history until the runner's BotChecked for this
 * request says how many differences the check found: "no differences", or the count with the differences
 * recorded since the request and those found earlier in the run (a lasting one is recorded once per run).
 * Without that report after a few reads, it says so instead of guessing.
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
    const asked = await request<Answer<'/api/bots/{id}/check', 'post'>>({ url: apiPath('/api/bots/{id}/check', { id: botId }), method: 'POST' });
    if (!alive.current) return;
    if (asked.error) return setOutcome({ kind: 'error', message: describeError(asked.error) });
    const requestedAt = asked.data.requestedAt;
    setOutcome({ kind: 'waiting', requestedAt });
    let last = { found: [] as HistoryEvent[], earlier: [] as HistoryEvent[] };
    let count: number | null = null;
    for (let i = 0; i < polls && count === null; i++) {
      await new Promise((r) => setTimeout(r, pollMs));
      if (!alive.current) return;
      const history = await request<Answer<'/api/bots/{id}/history', 'get'>>({ url: apiPath('/api/bots/{id}/history', { id: botId }) });
      if (!alive.current) return;
      if (history.error) continue;
      const events = ordered(history.data);
      last = findings(events, requestedAt);
      // the runner's word that the check asked for ran (docs/watchdog.md)
      const done = events.find((e) => e.type === 'BotChecked' && (e.data as { requestedAt?: number } | null)?.requestedAt === requestedAt);
      if (done) count = Number((done.data as { found?: number }).found ?? 0);
    }
    setOutcome({ kind: 'done', requestedAt, count, ...last });
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
        {outcome.kind === 'done' ? <CheckOutcome count={outcome.count} found={outcome.found} earlier={outcome.earlier} /> : null}
      </div>
    </div>
  );
}

function CheckOutcome({ count, found, earlier }: { count: number | null; found: HistoryEvent[]; earlier: HistoryEvent[] }) {
  const list = (events: HistoryEvent[], label: string) => (
    <ul aria-label={label}>
      {events.map((e) => (
        <li key={e.id}>{describeEvent(e)}</li>
      ))}
    </ul>
  );
  if (count === 0) {
    return (
      <div className="notice notice--ok" role="note">
        <strong>Checked: no differences</strong>
        <p className="muted">The bot’s orders and position match the exchange.</p>
      </div>
    );
  }
  return (
    <div className="notice" role="note">
      {count === null ? (
        <strong>The check has not reported yet: what it finds will be in the history</strong>
      ) : (
        <strong>Checked: {count === 1 ? '1 difference' : `${count} differences`}</strong>
      )}
      {found.length > 0 ? list(found, 'Differences found by the check') : null}
      {earlier.length > 0 ? (
        <>
          <p>Found earlier in this run (a lasting difference is recorded once):</p>
          {list(earlier, 'Differences found earlier in this run')}
        </>
      ) : null}
    </div>
  );
}
