/**
 * Issue 16: a signed-in user's requests no longer read the session and the user from the read store
 * every time; a session resolved in the last second is served from memory, while this process runs the
 * projections on the embedded read store. What a user would check: that signing out (or a session
 * ending any other way) still takes effect on the very next request, and what it saves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadStore } from '@gridrocket/read-store';
import { loadConfig } from '@gridrocket/shared/runtime';
import { RunningApp, startApp } from '../apps/api/src/bootstrap';
import { Client } from './support/http-client';

jest.setTimeout(60_000);

describe('sessions resolved moments ago are served from memory, and an ended one is refused at once', () => {
  let dir: string;
  let app: RunningApp;
  /** Reads of the sessions collection made by the app. */
  let sessionReads = 0;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-recent-'));
    sessionReads = 0;
    const counted = (store: ReadStore): ReadStore => {
      const get = store.get.bind(store);
      store.get = ((collection: string, id: string) => {
        if (collection === 'sessions') sessionReads++;
        return get(collection, id);
      }) as ReadStore['get'];
      return store;
    };
    const config = loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: join(dir, 'no-web') });
    app = await startApp(config, { adapters: { readStore: counted } });
  });
  /** A GET of the bot list with exactly this cookie header (a replayed cookie). */
  const statusWith = async (cookie: string) => (await fetch(`${app.url}/api/bots`, { headers: { cookie } })).status;

  afterEach(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given a signed-in user, when they make 20 requests within a second, then their session is read once, not 20 times', async () => {
    const ann = new Client(app.url);
    await ann.signUp('ann@example.com');
    sessionReads = 0;
    for (let i = 0; i < 20; i++) expect((await ann.get('/api/bots')).status).toBe(200);
    expect(sessionReads).toBe(1);
  });

  it('given a session just used, when its user signs out, then the next request with it is 401', async () => {
    const ben = new Client(app.url);
    await ben.signUp('ben@example.com');
    const cookie = ben.cookieHeader();
    expect((await ben.get('/api/bots')).status).toBe(200); // resolved, and kept in memory

    expect((await ben.post('/api/auth/logout')).status).toBe(204);

    expect(await statusWith(cookie)).toBe(401); // the signed-out session's cookie, replayed
  });

  it('given two devices signed in, when one signs out, then the other goes on and the signed-out one is refused', async () => {
    const phone = new Client(app.url);
    await phone.signUp('cat@example.com');
    const laptop = new Client(app.url);
    expect((await laptop.post('/api/auth/login', { email: 'cat@example.com', password: 'correct-horse-1' })).status).toBe(200);
    const phoneCookie = phone.cookieHeader();
    expect((await phone.get('/api/bots')).status).toBe(200);
    expect((await laptop.get('/api/bots')).status).toBe(200);

    expect((await phone.post('/api/auth/logout')).status).toBe(204);

    expect((await laptop.get('/api/bots')).status).toBe(200);
    expect(await statusWith(phoneCookie)).toBe(401);
  });
});
