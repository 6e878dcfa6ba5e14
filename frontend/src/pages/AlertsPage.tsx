import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ALERT_CHANNEL_LABELS, ALERT_KIND_LABELS, ALERT_KINDS, type AlertChannel, type AlertKind } from '@gridrocket/alerts/domain/alert.kinds';
import { apiPath, type Answer, type Body } from '../api/contract';
import { describeError, request, type FieldError } from '../api/http';
import { Field } from '../components/Field';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { HeadRow } from '../components/PageKit';

/** GET /api/alerts/:userId: secrets never come back, only whether one is set and its last 4 characters. */
type AlertSettingsView = Answer<'/api/alerts/{userId}', 'get'>;

type DeliveryView = Answer<'/api/alerts/{userId}/deliveries', 'get'>[number];

const CHANNEL_LABELS: Record<string, string> = ALERT_CHANNEL_LABELS;

/** POST /api/alerts/:userId/test (issue 40): what the receiver answered. */
type TestResult = Answer<'/api/alerts/{userId}/test', 'post'>;

/** A channel as "Turn … on" names it. */
const TURN_ON: Record<AlertChannel, string> = { email: 'e-mail', webhook: 'the webhook', telegram: 'Telegram' };

/** Who answered a test, in words. */
const RECEIVER: Record<AlertChannel, string> = { email: 'the mail server', webhook: 'your webhook', telegram: 'Telegram' };

/** The result of a test as the owner reads it: delivered, or the receiver's own error. */
export function testResultText(r: TestResult): string {
  if (r.status === 'delivered') {
    if (r.channel === 'email' && r.code === null) return 'Delivered: written to the mail folder (no mail server is set up on this server).';
    return `Delivered: ${RECEIVER[r.channel]} answered ${r.code ?? 'OK'}.`;
  }
  const why = r.error ?? `${RECEIVER[r.channel]} answered ${r.code ?? 'nothing'}`;
  return `${r.status === 'refused' ? 'Refused' : 'Not delivered'}: ${why}${r.code !== null && !why.includes(String(r.code)) ? ` (${r.code})` : ''}.`.replace(/\.\.$/, '.');
}

/**
 * "Send a test" for one channel (issue 40): sends with the SAVED settings of the channel, once, and shows
 * what the receiver answered under the button.
 */
function ChannelTest({ uid, channel, saved, changed, onSent }: { uid: string; channel: AlertChannel; saved: boolean; changed: boolean; onSent: () => void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async () => {
    setBusy(true);
    setResult(null);
    const res = await request<TestResult>({ url: apiPath('/api/alerts/{userId}/test', { userId: uid }), method: 'POST', body: { channel } satisfies Body<'/api/alerts/{userId}/test', 'post'> });
    setBusy(false);
    if (res.error) setResult({ ok: false, text: `Not sent: ${describeError(res.error)}` });
    else setResult({ ok: res.data.status === 'delivered', text: testResultText(res.data) });
    onSent();
  };
  const label = CHANNEL_LABELS[channel];
  return (
    <div className="alerts-test">
      <button type="button" className="btn btn--ghost btn--small" onClick={() => void send()} disabled={!saved || busy} aria-describedby={`alerts-test-${channel}-why`}>
        {busy ? 'Sending…' : 'Send a test'}
      </button>
      <small id={`alerts-test-${channel}-why`} className="muted">
        {!saved ? `Turn ${TURN_ON[channel]} on and save to send a test.` : changed ? 'Sends with the saved settings: save your changes first.' : `Sends a test message now with the saved settings.`}
      </small>
      {result ? (
        <p role="status" aria-label={`${label} test result`} className={result.ok ? 'alerts-test__result alerts-test__result--ok' : 'alerts-test__result alerts-test__result--fail'}>
          {result.text}
        </p>
      ) : null}
    </div>
  );
}

/** /alerts: what to hear about, where, and the log of what was sent. */
export default function AlertsPage() {
  const user = useUser()!;
  const dispatch = useAppDispatch();
  const [settings, setSettings] = useState<AlertSettingsView | null>(null);
  const [kinds, setKinds] = useState<AlertKind[]>([]);
  const [email, setEmail] = useState(false);
  const [webhook, setWebhook] = useState({ enabled: false, url: '', secret: '' });
  const [telegram, setTelegram] = useState({ enabled: false, chatId: '', botToken: '' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [saving, setSaving] = useState(false);
  const [log, setLog] = useState<DeliveryView[]>([]);

  const apply = (s: AlertSettingsView) => {
    setSettings(s);
    setKinds(s.kinds);
    setEmail(s.email.enabled);
    setWebhook({ enabled: s.webhook.enabled, url: s.webhook.url ?? '', secret: '' });
    setTelegram({ enabled: s.telegram.enabled, chatId: s.telegram.chatId ?? '', botToken: '' });
  };
  const loadLog = useCallback(async () => {
    const res = await request<DeliveryView[]>({ url: apiPath('/api/alerts/{userId}/deliveries', { userId: user.uid }) });
    if (res.data) setLog(res.data);
  }, [user.uid]);
  useEffect(() => {
    void request<AlertSettingsView>({ url: apiPath('/api/alerts/{userId}', { userId: user.uid }) }).then((res) => res.data && apply(res.data));
    void loadLog();
  }, [user.uid, loadLog]);

  const errorOf = (field: string) => errors.find((e) => e.field === field)?.message ?? null;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const res = await request<AlertSettingsView>({
      url: apiPath('/api/alerts/{userId}', { userId: user.uid }),
      method: 'PUT',
      body: {
        kinds,
        email: { enabled: email },
        webhook: { enabled: webhook.enabled, url: webhook.url.trim() || null, secret: webhook.secret || undefined },
        telegram: { enabled: telegram.enabled, chatId: telegram.chatId.trim() || null, botToken: telegram.botToken.trim() || undefined },
      } satisfies Body<'/api/alerts/{userId}', 'put'>,
    });
    setSaving(false);
    if (res.error) {
      setErrors(res.error.errors ?? []);
      dispatch(ui.toast('error', 'Could not save your alerts.', describeError(res.error)));
      return;
    }
    setErrors([]);
    apply(res.data);
    dispatch(ui.toast('success', 'Alerts saved.'));
  };

  const toggleKind = (k: AlertKind) => setKinds((ks) => (ks.includes(k) ? ks.filter((x) => x !== k) : [...ks, k]));

  return (
    <div className="page page--narrow">
      <section className="card" aria-labelledby="alerts-title">
        <h1 id="alerts-title">Alerts</h1>
        <form noValidate onSubmit={save} aria-label="Alert settings" className="alerts-form">
          <fieldset>
            <legend>What to hear about</legend>
            {errorOf('kinds') ? <p className="field__error" role="alert">{errorOf('kinds')}</p> : null}
            {ALERT_KINDS.map((k) => (
              <label key={k} className="check">
                <input type="checkbox" checked={kinds.includes(k)} onChange={() => toggleKind(k)} /> {ALERT_KIND_LABELS[k]}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>E-mail</legend>
            <label className="check">
              <input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} /> Send to {user.email}
            </label>
            <ChannelTest uid={user.uid} channel="email" saved={!!settings?.email.enabled} changed={!!settings && email !== settings.email.enabled} onSent={() => void loadLog()} />
          </fieldset>
          <fieldset>
            <legend>Webhook</legend>
            <label className="check">
              <input type="checkbox" checked={webhook.enabled} onChange={(e) => setWebhook({ ...webhook, enabled: e.target.checked })} /> Post a signed JSON request
            </label>
            <Field id="alerts-webhook-url" label="Webhook URL" value={webhook.url} onValue={(v) => setWebhook({ ...webhook, url: v })} error={errorOf('webhook.url')} inputMode="url" placeholder="https://" />
            <Field
              id="alerts-webhook-secret"
              label="Webhook secret"
              type="password"
              autoComplete="off"
              value={webhook.secret}
              onValue={(v) => setWebhook({ ...webhook, secret: v })}
              error={errorOf('webhook.secret')}
              hint={
                settings?.webhook.secretSet
                  ? `A secret ending in …${settings.webhook.secretLast4} is set: leave empty to keep it.`
                  : 'At least 16 characters. Each request carries X-GridRocket-Signature: sha256=HMAC-SHA256(secret, "timestamp.body") and X-GridRocket-Timestamp.'
              }
            />
            <ChannelTest
              uid={user.uid}
              channel="webhook"
              saved={!!settings?.webhook.enabled && !!settings.webhook.url && settings.webhook.secretSet}
              changed={!!settings && (webhook.enabled !== settings.webhook.enabled || webhook.url.trim() !== (settings.webhook.url ?? '') || webhook.secret !== '')}
              onSent={() => void loadLog()}
            />
          </fieldset>
          <fieldset>
            <legend>Telegram</legend>
            <label className="check">
              <input type="checkbox" checked={telegram.enabled} onChange={(e) => setTelegram({ ...telegram, enabled: e.target.checked })} /> Message me through my Telegram bot
            </label>
            <Field
              id="alerts-telegram-token"
              label="Bot token"
              type="password"
              autoComplete="off"
              value={telegram.botToken}
              onValue={(v) => setTelegram({ ...telegram, botToken: v })}
              error={errorOf('telegram.botToken')}
              hint={settings?.telegram.botTokenSet ? `A token ending in …${settings.telegram.botTokenLast4} is set: leave empty to keep it.` : 'The token BotFather gave you.'}
            />
            <Field id="alerts-telegram-chat" label="Chat id" value={telegram.chatId} onValue={(v) => setTelegram({ ...telegram, chatId: v })} error={errorOf('telegram.chatId')} hint="Your chat's number, or @channelusername." />
            <ChannelTest
              uid={user.uid}
              channel="telegram"
              saved={!!settings?.telegram.enabled && !!settings.telegram.chatId && settings.telegram.botTokenSet}
              changed={!!settings && (telegram.enabled !== settings.telegram.enabled || telegram.chatId.trim() !== (settings.telegram.chatId ?? '') || telegram.botToken !== '')}
              onSent={() => void loadLog()}
            />
          </fieldset>
          <div className="actions">
            <button type="submit" className="btn btn--primary" disabled={saving}>
              Save
            </button>
          </div>
        </form>
      </section>
      <section className="card" aria-labelledby="alerts-log-title">
        <div className="page__head">
          <h2 id="alerts-log-title">Delivery log</h2>
          <button type="button" className="btn btn--ghost btn--small" onClick={() => void loadLog()}>
            Refresh
          </button>
        </div>
        {log.length === 0 ? (
          <p className="muted">Nothing sent yet.</p>
        ) : (
          <div className="table-card alerts-log">
            <table className="table">
              <HeadRow columns={['Time', 'Event', 'Channel', 'Status', 'Code', 'Attempts']} />
              <tbody>
                {log.map((d) => (
                  <tr key={d.id}>
                    <td data-label="Time">{new Date(d.at).toLocaleString()}</td>
                    <td data-label="Event">{d.title}</td>
                    <td data-label="Channel">{CHANNEL_LABELS[d.channel] ?? d.channel}</td>
                    <td data-label="Status" title={d.error ?? undefined}>
                      {d.status}
                      {d.error && d.status !== 'delivered' ? <small className="muted alerts-log__why">{d.error}</small> : null}
                    </td>
                    <td data-label="Code">{d.code ?? '—'}</td>
                    <td data-label="Attempts">{d.attempts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
