import type { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { Client } from './http-client';
import { startPaperReplayApp, startTestApp } from './test-app';

/**
 * The set-up a dozen suites wrote out (issue 42): the real app of a describe block, started before its tests
 * and closed after them, with one signed-up trader (a paper key and a first bot when asked). A suite is then
 * its scenario: `const t = useTraderApp('alice@example.com', { key: true, bot: spotBot })`, and its tests
 * read `t.c`, `t.uid`, `t.botId`, `t.app` (filled in before the first test).
 */
export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
export type PaperReplay = Awaited<ReturnType<typeof startPaperReplayApp>>;

export interface Trader {
  /** The trader's session. */
  c: Client;
  uid: string;
  /** The id of the bot made for the trader ('' without `bot`). */
  botId: string;
}

type Exchange = 'Binance' | 'Kucoin';

export interface TraderOptions {
  /** Key and bot: a Binance (or the named exchange's) paper key first, then this bot (`userId` added), which must be a 201. */
  key?: boolean | Exchange | Exchange[];
  bot?: Record<string, unknown>;
}

export interface TraderAppOptions extends TraderOptions {
  /** The app's environment; a function is read when the app starts (after the suite's own beforeAll, e.g. stand-ins). */
  env?: Record<string, string> | (() => Record<string, string>);
  /** The paper exchange replaying `csv` (with its header), its clock at `at` (startPaperReplayApp). */
  replay?: { csv: string; at: number };
}

export interface TraderApp extends Trader {
  app: TestApp;
  /** With `replay`: the replayed paper venue and its provider. */
  replay?: PaperReplay;
  venue: PaperVenue;
  provider: PaperExchangeProvider;
}

/** A trader signed up on the app at `url` (see TraderOptions). */
export async function signUpTrader(url: string, email: string, { key, bot }: TraderOptions = {}): Promise<Trader> {
  const c = new Client(url);
  const uid = (await c.signUp(email)).uid;
  for (const exchange of key === true ? ['Binance' as const] : key ? [key].flat() : []) await c.addKey(uid, exchange);
  let botId = '';
  if (bot) {
    const made = await c.post('/api/bots', { ...bot, userId: uid });
    expect(made.status).toBe(201);
    botId = made.body.id;
  }
  return { c, uid, botId };
}

/** A trader `email` on the app at `url` with a Binance paper key and the bot `bot` (`userId` added), made as it is posted (the answer not checked): the id of the bot. */
export async function traderWithBot(url: string, email: string, bot: Record<string, unknown>): Promise<Trader> {
  const c = new Client(url);
  const { uid } = await c.signUp(email);
  await c.addKey(uid, 'Binance');
  const botId = (await c.post('/api/bots', { ...bot, userId: uid })).body.id as string;
  return { c, uid, botId };
}

/** The app of a describe block with no user yet: started before its tests, closed after them. */
export function useTestApp(env: TraderAppOptions['env'] = {}): { app: TestApp } {
  const world = {} as { app: TestApp };
  beforeAll(async () => {
    world.app = await startTestApp(typeof env === 'function' ? env() : env);
  }, 60_000);
  afterAll(async () => {
    await world.app?.close();
  });
  return world;
}

/** The app of a describe block with one signed-up trader `email` (see TraderAppOptions), closed after its tests. */
export function useTraderApp(email: string, { env = {}, replay, ...trader }: TraderAppOptions = {}): TraderApp {
  const world = {} as TraderApp;
  beforeAll(async () => {
    const vars = typeof env === 'function' ? env() : env;
    if (replay) {
      world.replay = await startPaperReplayApp(replay.csv, replay.at, vars);
      Object.assign(world, { app: world.replay.app, venue: world.replay.venue, provider: world.replay.provider });
    } else {
      world.app = await startTestApp(vars);
    }
    Object.assign(world, await signUpTrader(world.app.url, email, trader));
  }, 60_000);
  afterAll(async () => {
    await (world.replay ?? world.app)?.close();
  });
  return world;
}

/** The paper replay of a describe block (startPaperReplayApp of `csv` at `at`), no user yet: started before its tests, closed after. */
export function usePaperReplay(csv: string, at: number, env: Record<string, string> = {}): PaperReplay {
  const world = {} as PaperReplay;
  let replay: PaperReplay | undefined;
  beforeAll(async () => {
    replay = await startPaperReplayApp(csv, at, env);
    Object.assign(world, { app: replay.app, venue: replay.venue, provider: replay.provider });
  }, 60_000);
  afterAll(async () => {
    await replay?.close();
  });
  return world;
}
