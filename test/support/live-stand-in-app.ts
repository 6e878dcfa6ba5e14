/**
 * The app live (EXCHANGE_MODE live) against the Binance spot venue stand-in, for a describe block: a paper
 * venue core on the suite's price path (`csv`, at `startAt`, listing STANDIN_SYMBOLS), the stand-in with one
 * key over it, the app pointed at it, and a signed-up trader with a Binance key; all closed after the suite.
 * Each suite keeps its path, its bots and what it checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvReplayFeed, PaperVenue, STANDIN_SYMBOLS } from '@gridrocket/exchanges';
import { startVenueStandIn, type StandInKey, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { Client } from './http-client';
import { startTestApp } from './test-app';

interface StandInAppSetup {
  prefix: string;
  /** The venue core in the suite's folder. */
  venue(dir: string): PaperVenue;
  exchange: 'Binance' | 'Kucoin';
  market: 'spot' | 'futures';
  keys: StandInKey[];
  env?: Record<string, string>;
}

/** The folder, the venue core, the stand-in over it and the app live against it, for a describe block; closed after it. */
function useStandInAppOn(o: StandInAppSetup) {
  let dir: string;
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), o.prefix));
    venue = o.venue(dir);
    standIn = await startVenueStandIn(venue, o.exchange, o.market, o.keys);
    app = await startTestApp({ EXCHANGE_MODE: 'live', EXCHANGE_API_ORIGIN: standIn.origin, ...o.env });
  });
  afterAll(async () => {
    await app?.close();
    await standIn?.close();
    venue?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get venue() {
      return venue;
    },
    get standIn() {
      return standIn;
    },
    get app() {
      return app;
    },
  };
}

export function useLiveStandInApp(o: { prefix: string; csv: string; startAt: number; key: StandInKey; email: string }) {
  const live = useStandInAppOn({
    prefix: o.prefix,
    venue: (dir) => {
      // the venue's own listing: the paper catalogue and the pairs only venues list (STANDIN_SYMBOLS)
      const venue = new PaperVenue({ store: join(dir, 'venue.sqlite'), feed: new CsvReplayFeed(o.csv, STANDIN_SYMBOLS), symbols: STANDIN_SYMBOLS, clock: Date.now });
      venue.advanceTo(o.startAt);
      return venue;
    },
    exchange: 'Binance',
    market: 'spot',
    keys: [o.key],
  });
  let c: Client;
  let uid: string;
  beforeAll(async () => {
    c = new Client(live.app.url);
    uid = (await c.signUp(o.email)).uid;
    await c.addKey(uid, 'Binance');
  });
  return {
    get venue() {
      return live.venue;
    },
    get standIn() {
      return live.standIn;
    },
    get c() {
      return c;
    },
    get uid() {
      return uid;
    },
    /** The stand-in key's account on the venue core. */
    account: () => live.venue.account(o.key.userId, 'Binance', 'spot'),
    /** The bot's history, its event types in order. */
    types: async (id: string) => ((await c.get(`/api/bots/${id}/history`)).body as Array<{ type: string }>).map((e) => e.type),
  };
}

/**
 * The app live against one venue stand-in with no keys yet over an empty paper core (the suite adds the keys
 * the venue knows), for a describe block; `env` beside EXCHANGE_MODE and EXCHANGE_API_ORIGIN. Closed after it.
 */
export function useStandInApp(prefix: string, exchange: 'Binance' | 'Kucoin', market: 'spot' | 'futures', env: Record<string, string> = {}) {
  return useStandInAppOn({ prefix, venue: (dir) => PaperVenue.open({ dataDir: dir }), exchange, market, keys: [], env });
}
