import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ALERT_KIND_LABELS, ALERT_KINDS, type AlertKind } from '@gridrocket/alerts/domain/alert.kinds';
import { describeError, request, type FieldError } from '../api/http';
import { Field } from '../components/Field';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';

/** GET /api/alerts/:userId: secrets never come back, only whether one is set and its last 4 characters. */
interface AlertSettingsView {
  kinds: AlertKind[];
  email: { enabled: boolean };
  webhook: { enabled: boolean; url: string | null; secretSet: boolean; secretLast4: string | null };
  telegram: { enabled: boolean; chatId: string | null; botTokenSet: boolean; botTokenLast4: string | null };
}

interface DeliveryView {
  id: string;
  at: string;
  channel: string;
  kind: AlertKind;
  event: string;
  symbol: string;
  title: string;
  status: string;
  code: number | null;
  attempts: number;
  error: string | null;
}

const CHANNEL_LABELS: Record<string, string> = { email: 'E-mail', webhook: 'Webhook', telegram: 'Telegram' };

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
    const res = await request<DeliveryView[]>({ url: `/api/alerts/${user.uid}/deliveries` });
    if (res.data) setLog(res.data);
  }, [user.uid]);
  useEffect(() => {
    void request<AlertSettingsView>({ url: `/api/alerts/${user.uid}` }).then((res) => res.data && apply(res.data));
    void loadLog();
  }, [user.uid, loadLog]);

  const errorOf = (field: string) => errors.find((e) => e.field === field)?.message ?? null;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const res = await request<AlertSettingsView>({
      url: `/api/alerts/${user.uid}`,
      method: 'PUT',
      body: {
        kinds,
        email: { enabled: email },
        webhook: { enabled: webhook.enabled, url: webhook.url.trim() || null, secret: webhook.secret || undefined },
        telegram: { enabled: telegram.enabled, chatId: telegram.chatId.trim() || null, botToken: telegram.botToken.trim() || undefined },
      },
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
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Status</th>
                  <th scope="col">Code</th>
                  <th scope="col">Attempts</th>
                </tr>
              </thead>
              <tbody>
                {log.map((d) => (
                  <tr key={d.id}>
                    <td>{new Date(d.at).toLocaleString()}</td>
                    <td>{d.title}</td>
                    <td>{CHANNEL_LABELS[d.channel] ?? d.channel}</td>
                    <td title={d.error ?? undefined}>{d.status}</td>
                    <td>{d.code ?? '—'}</td>
                    <td>{d.attempts}</td>
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
