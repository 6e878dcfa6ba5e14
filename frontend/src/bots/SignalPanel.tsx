import { useCallback, useEffect, useRef, useState } from 'react';
import { Copy, RadioTower, RefreshCw } from 'lucide-react';
import { describeError, request } from '../api/http';
import { describeEvent, eventLabel, eventTime, formatTime, ordered, type HistoryEvent } from '../history/events';

/** GET /api/bots/{id}/signals (docs/signals.md): never the secret, only its last 4 characters. */
export interface SignalSettings {
  enabled: boolean;
  url: string;
  secretLast4: string | null;
  allowBodySecret: boolean;
  windowSeconds: number;
}
/** The answer of enabling or rotating: the secret, shown this once. */
type SignalSecret = SignalSettings & { secret: string };

const SIGNAL_EVENTS = new Set(['SignalReceived', 'SignalHandled', 'SignalRefused']);
/** How many of the bot's latest signal events the panel lists (all are in the History tab). */
const RECENT = 5;

/** The message a TradingView alert sends (its secret in the message: the bot must allow it). */
export function tradingViewMessage(action: 'start' | 'stop', secret: string): string {
  return `{"action":"${action}","id":"${action}-{{timenow}}","timestamp":"{{timenow}}","secret":"${secret}"}`;
}

/**
 * Signed signals on the bot page (issue 32): turn the bot's signal webhook on (its URL, and its secret
 * shown once), choose whether TradingView's form (the secret in the message) is taken, rotate the secret
 * or turn the webhook off; and the bot's latest signals from its history, refusals included.
 */
export function SignalPanel({ botId }: { botId: string }) {
  const [settings, setSettings] = useState<SignalSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [made, setMade] = useState<SignalSecret | null>(null);
  const [allowBodySecret, setAllowBodySecret] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [recent, setRecent] = useState<HistoryEvent[]>([]);
  const alive = useRef(true);
  const base = `/api/bots/${encodeURIComponent(botId)}`;

  const load = useCallback(async () => {
    const s = await request<SignalSettings>({ url: `${base}/signals` });
    if (!alive.current) return;
    if (s.error) return setLoadError(describeError(s.error));
    setLoadError(null);
    setSettings(s.data);
    setAllowBodySecret(s.data.allowBodySecret);
    // the history (possibly long) is read only for a bot that takes signals
    if (!s.data.enabled) return;
    const h = await request<unknown>({ url: `${base}/history` });
    if (alive.current && !h.error) setRecent(ordered(h.data).filter((e) => SIGNAL_EVENTS.has(e.type)).slice(-RECENT).reverse());
  }, [base]);

  useEffect(() => {
    alive.current = true;
    void load();
    return () => {
      alive.current = false;
    };
  }, [load]);

  const act = async (call: () => Promise<{ data?: unknown; error?: unknown }>, onDone: (data: unknown) => void) => {
    setBusy(true);
    setRefusal(null);
    const res = await call();
    if (!alive.current) return;
    setBusy(false);
    if (res.error) return setRefusal(describeError(res.error));
    onDone(res.data);
    await load();
  };

  const enable = () => act(() => request<SignalSecret>({ url: `${base}/signals`, method: 'POST', body: { allowBodySecret } }), (d) => setMade(d as SignalSecret));
  const rotate = () => act(() => request<SignalSecret>({ url: `${base}/signals/rotate`, method: 'POST', body: { allowBodySecret } }), (d) => setMade(d as SignalSecret));
  const disable = () =>
    act(
      () => request<null>({ url: `${base}/signals`, method: 'DELETE' }),
      () => setMade(null),
    );

  const copy = async (label: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`${label} copied.`);
    } catch {
      setCopied(`Could not copy: select the ${label.toLowerCase()} and copy it by hand.`);
    }
  };

  return (
    <section className="card signals" aria-labelledby="signals-title" data-testid="signal-panel">
      <h2 id="signals-title">
        <RadioTower size={18} aria-hidden="true" /> Signals
      </h2>
      <p className="muted">
        Start and stop this bot from TradingView alerts or your own scripts. Each signal is signed with the bot’s secret, must be sent within{' '}
        {settings?.windowSeconds ?? 300} seconds and carries an id of its own; the bot’s usual checks apply to every start.
      </p>
      {loadError ? (
        <p className="notice">
          Could not load the signal settings. {loadError}
        </p>
      ) : null}

      {made ? (
        <div className="signals__made" role="group" aria-label="Your new signal secret">
          <p className="notice">Copy the secret now: it is not shown again. Rotate it to get a new one.</p>
          <code className="tokens__secret" aria-label="Signal secret">
            {made.secret}
          </code>
          <div className="actions actions--start">
            <button type="button" className="btn btn--ghost" onClick={() => void copy('Secret', made.secret)}>
              <Copy size={16} aria-hidden="true" /> Copy secret
            </button>
            <button type="button" className="btn btn--primary" onClick={() => setMade(null)}>
              I have copied it
            </button>
          </div>
          {made.allowBodySecret ? (
            <p className="muted">
              TradingView alert message to start the bot: <code aria-label="TradingView start message">{tradingViewMessage('start', made.secret)}</code>
            </p>
          ) : null}
        </div>
      ) : null}

      {settings?.enabled ? (
        <dl className="settings-facts">
          <div>
            <dt>Webhook URL</dt>
            <dd>
              <code aria-label="Webhook URL">{settings.url}</code>{' '}
              <button type="button" className="btn btn--ghost btn--small" onClick={() => void copy('URL', settings.url)}>
                <Copy size={14} aria-hidden="true" /> Copy URL
              </button>
            </dd>
          </div>
          <div>
            <dt>Secret</dt>
            <dd>ends in …{settings.secretLast4}</dd>
          </div>
          <div>
            <dt>Accepted</dt>
            <dd>{settings.allowBodySecret ? 'signed requests, and the secret in the message (TradingView)' : 'signed requests only (X-Signature)'}</dd>
          </div>
        </dl>
      ) : settings ? (
        <p>Signals are off for this bot.</p>
      ) : null}

      {settings ? (
        <>
          <label className="checkbox">
            <input type="checkbox" checked={allowBodySecret} onChange={(e) => setAllowBodySecret(e.target.checked)} disabled={busy} /> Accept the secret in the message (TradingView)
            <small className="muted">
              {' '}
              — TradingView cannot sign requests: its alerts carry the secret itself, protected by HTTPS only. Applies when you enable or rotate.
            </small>
          </label>
          <div className="actions actions--start">
            {settings.enabled ? (
              <>
                <button type="button" className="btn btn--ghost" onClick={() => void rotate()} disabled={busy}>
                  <RefreshCw size={16} aria-hidden="true" /> Rotate secret
                </button>
                <button type="button" className="btn btn--ghost btn--danger-ghost" onClick={() => void disable()} disabled={busy}>
                  Turn signals off
                </button>
              </>
            ) : (
              <button type="button" className="btn btn--primary" onClick={() => void enable()} disabled={busy}>
                Turn signals on
              </button>
            )}
          </div>
        </>
      ) : null}
      {refusal ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : null}
      {copied ? (
        <p className="muted" role="status">
          {copied}
        </p>
      ) : null}

      {recent.length > 0 ? (
        <>
          <h3>Latest signals</h3>
          <ul className="signals__recent" aria-label="Latest signals">
            {recent.map((e) => (
              <li key={e.id} data-type={e.type}>
                <strong>{eventLabel(e.type)}</strong> <time dateTime={eventTime(e)}>{formatTime(eventTime(e))}</time>: {describeEvent(e)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
