import { Client, spotBot } from './support/http-client';
import { verifyByMail } from './support/mailbox';
import { startTestApp } from './support/test-app';

/**
 * Issue 11, finding 2: with AUDITOR_EMAILS=audit@example.com, registering `Audit@Example.com` and never
 * verifying it read every user's bot history. The role now needs the verified address.
 */
describe('security: the auditor role needs a verified address', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let botId: string;

  beforeAll(async () => {
    app = await startTestApp({ AUDITOR_EMAILS: 'audit@example.com' });
    const trader = new Client(app.url);
    const { uid } = await trader.signUp('victim-trader@example.com');
    const bot = await trader.post('/api/bots', { ...spotBot, userId: uid });
    expect(bot.status).toBe(201);
    botId = bot.body.id;
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('an unverified registration of the auditor address reads nothing of anyone; verified, the same session reads it', async () => {
    const squatter = new Client(app.url);
    await squatter.signUp('Audit@Example.com');
    expect((await squatter.get('/api/auth/me')).body.emailVerified).toBe(false);
    for (const path of [`/api/bots/${botId}/history`, `/api/bots/${botId}/history?format=csv`, `/api/bots/${botId}/state?at=${new Date().toISOString()}`]) {
      const res = await squatter.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).not.toContain(botId.slice(0, 8) + '","type"');
    }
    // read-only applies already: an auditor's address changes nothing, verified or not
    expect((await squatter.post('/api/bots', { ...spotBot })).status).toBe(403);

    // Whoever really owns the mailbox verifies it: the role is decided again on the next request.
    await verifyByMail(squatter, app.dataDir, 'audit@example.com');
    const history = await squatter.get(`/api/bots/${botId}/history`);
    expect(history.status).toBe(200);
    expect(history.body.map((e: { type: string }) => e.type)).toEqual(['BotCreated']);
  }, 60_000);

  it('an address that only looks like the auditor\'s is never an auditor, even verified', async () => {
    const other = new Client(app.url);
    await other.signUp('audit@example.co');
    await verifyByMail(other, app.dataDir, 'audit@example.co');
    expect((await other.get(`/api/bots/${botId}/history`)).status).toBe(404);
  }, 60_000);
});
