import { useCallback, useEffect, useRef, useState } from 'react';
import { Copy, RadioTower, RefreshCw } from 'lucide-react';
import { Link, useInRouterContext } from 'react-router-dom';
import { ALERT_CHANNEL_LABELS, ALERT_CHANNELS } from '@gridrocket/alerts/domain/alert.kinds';
import { apiPath, type Answer, type Body } from '../api/contract';
import { describeError, request } from '../api/http';
import { describeEvent, eventLabel, eventTime, formatTime, ordered, type HistoryEvent } from '../history/events';
import { FormRefusal } from '../components/Feedback';

/** GET /api/bots/{id}/signals (docs/signals.md): never the secret, only its last 4 characters. */
export type SignalSettings = Answer<'/api/bots/{id}/signals', 'get'>;
/** The owner's standing choice for a held position (libs/bots signal.events.ts; issue 40). */
export type HeldPosition = SignalSettings['heldPosition'];
export const HELD_POSITION_CHOICES: Array<{ value: HeldPosition; label: string; hint: string }> = [
  { value: 'refuse', label: 'Refuse the start', hint: 'The signal is refused and you are alerted; you start the bot yourself.' },
  { value: 'resume', label: 'Start with the position', hint: 'The bot keeps what it holds (its take-profit stays) and places its ladder again.' },
  { value: 'sell', label: 'Sell it first', hint: 'The bot’s orders are cancelled and what it holds is sold at market (a short bought back), then it starts afresh.' },
];
/** The answer of enabling or rotating: the secret, shown this once. */
type SignalSecret = Answer<'/api/bots/{id}/signals', 'post'>;

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
/** GET /api/alerts/:userId, the parts the panel reads: where a refused signal's alert goes. */
type AlertReach = Answer<'/api/alerts/{userId}', 'get'>;

/** A link to the alert settings: a router link in the app, a plain one where the panel stands alone. */
function AlertsLink({ children }: { children: string }) {
  return useInRouterContext() ? <Link to="/alerts">{children}</Link> : <a href="/alerts">{children}</a>;
}

export function SignalPanel({ botId, userId }: { botId: string; userId?: string }) {
  const [settings, setSettings] = useState<SignalSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [made, setMade] = useState<SignalSecret | null>(null);
  const [allowBodySecret, setAllowBodySecret] = useState(false);
  const [heldPosition, setHeldPosition] = useState<HeldPosition>('refuse');
  const [chosen, setChosen] = useState<string | null>(null);
  const [reach, setReach] = useState<AlertReach | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [recent, setRecent] = useState<HistoryEvent[]>([]);
  const alive = useRef(true);
  const signals = apiPath('/api/bots/{id}/signals', { id: botId });

  const load = useCallback(async () => {
    const s = await request<SignalSettings>({ url: signals });
    if (!alive.current) return;
    if (s.error) return setLoadError(describeError(s.error));
    setLoadError(null);
    setSettings(s.data);
    setAllowBodySecret(s.data.allowBodySecret);
    setHeldPosition(s.data.heldPosition ?? 'refuse');
    // the history (possibly long) is read only for a bot that takes signals
    if (!s.data.enabled) return;
    if (userId) {
      const a = await request<AlertReach>({ url: apiPath('/api/alerts/{userId}', { userId }) });
      if (alive.current && !a.error) setReach(a.data);
    }
    const h = await request<Answer<'/api/bots/{id}/history', 'get'>>({ url: apiPath('/api/bots/{id}/history', { id: botId }) });
    if (alive.current && !h.error) setRecent(ordered(h.data).filter((e) => SIGNAL_EVENTS.has(e.type)).slice(-RECENT).reverse());
  }, [signals, botId, userId]);

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

  const enable = () => act(() => request<SignalSecret>({ url: signals, method: 'POST', body: { allowBodySecret, heldPosition } satisfies Body<'/api/bots/{id}/signals', 'post'> }), (d) => setMade(d as SignalSecret));
  /** Signals on: the choice is saved at once; off: it goes with "Turn signals on". */
  const choose = async (value: HeldPosition) => {
    const before = heldPosition;
    setHeldPosition(value);
    setChosen(null);
    if (!settings?.enabled) return;
    setBusy(true);
    setRefusal(null);
    const res = await request<Answer<'/api/bots/{id}/signals', 'patch'>>({ url: signals, method: 'PATCH', body: { heldPosition: value } satisfies Body<'/api/bots/{id}/signals', 'patch'> });
    if (!alive.current) return;
    setBusy(false);
    if (res.error) {
      setHeldPosition(before);
      return setRefusal(describeError(res.error));
    }
    setSettings(res.data);
    setChosen(`Saved: ${HELD_POSITION_CHOICES.find((c) => c.value === value)!.label.toLowerCase()}.`);
  };
  const rotate = () => act(() => request<Answer<'/api/bots/{id}/signals/rotate', 'post'>>({ url: apiPath('/api/bots/{id}/signals/rotate', { id: botId }), method: 'POST', body: { allowBodySecret } satisfies Body<'/api/bots/{id}/signals/rotate', 'post'> }), (d) => setMade(d as SignalSecret));
  const disable = () =>
    act(
      () => request<Answer<'/api/bots/{id}/signals', 'delete'>>({ url: signals, method: 'DELETE' }),
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
          <fieldset className="signals__held" disabled={busy}>
            <legend>When the bot holds a position, a start signal…</legend>
            {HELD_POSITION_CHOICES.map((c) => (
              <label key={c.value} className="signals__choice">
                <input type="radio" name={`held-position-${botId}`} value={c.value} checked={heldPosition === c.value} onChange={() => void choose(c.value)} />
                <span>
                  <strong>{c.label}</strong> <small className="muted">— {c.hint}</small>
                </span>
              </label>
            ))}
            {!settings.enabled ? <small className="muted">Applies when you turn signals on; you can change it at any time after.</small> : null}
            {chosen ? (
              <p className="muted" role="status">
                {chosen}
              </p>
            ) : null}
          </fieldset>
          {settings.enabled && reach ? <RefusalReach reach={reach} /> : null}
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
      <FormRefusal message={refusal} />
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

/** Where a refused signal's alert goes (issue 40): the channels on, or a way to turn the alert on. */
function RefusalReach({ reach }: { reach: AlertReach }) {
  const channels = ALERT_CHANNELS.filter((c) => reach[c].enabled).map((c) => ALERT_CHANNEL_LABELS[c]);
  if (reach.kinds.includes('signalRefused') && channels.length > 0) {
    return (
      <p className="muted" data-testid="signal-refusal-reach">
        <span>
          A refused signal alerts you by {channels.join(', ')}. <AlertsLink>Alert settings</AlertsLink>
        </span>
      </p>
    );
  }
  return (
    <p className="notice" data-testid="signal-refusal-reach">
      {/* one run of text: .notice lays its children out side by side */}
      <span>
        A refused signal alerts nobody yet: {channels.length === 0 ? 'turn a channel on and ' : ''}tick “Signal refused” under <AlertsLink>Alerts</AlertsLink>.
      </span>
    </p>
  );
}
