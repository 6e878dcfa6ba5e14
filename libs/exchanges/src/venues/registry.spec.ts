import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXCHANGES } from '../exchange.port';
import { VENUE_LIMITS } from '../venue-budget';
import { VENUE_REGISTRY, accountOf, exchangeNamed, signupLinks, venueByCcxtId, venueById, venueOf } from './registry';

describe('the venue registry (issue 42: a venue is one folder plus a registry line)', () => {
  it('lists one venue per exchange and market, each with its own rules, ids and folder', () => {
    for (const exchange of EXCHANGES) {
      for (const market of ['spot', 'futures'] as const) {
        const v = venueOf(exchange, market);
        expect([v.exchange, v.market, v.rules.exchange, v.rules.market, v.rules.id]).toEqual([exchange, market, exchange, market, v.id]);
        expect(venueById(v.id)).toBe(v);
        expect(venueByCcxtId(v.ccxt.id)).toBe(v);
        expect(existsSync(join(__dirname, v.id, 'venue.ts'))).toBe(true);
        expect(existsSync(join(__dirname, v.id, 'rules.ts'))).toBe(true);
      }
    }
    expect(VENUE_REGISTRY.map((v) => [v.id, v.ccxt.id])).toEqual([
      ['binance-spot', 'binance'],
      ['binance-usdm', 'binanceusdm'],
      ['kucoin-spot', 'kucoin'],
      ['kucoin-futures', 'kucoinfutures'],
    ]);
    expect(new Set(VENUE_REGISTRY.map((v) => v.ccxt.id)).size).toBe(VENUE_REGISTRY.length);
  });

  it('names the stand-in dialect and the suites that test each venue, and they exist', () => {
    for (const v of VENUE_REGISTRY) {
      expect(existsSync(join(__dirname, '..', v.standin.dialect))).toBe(true);
      expect(v.standin.suites.length).toBeGreaterThan(0);
      for (const s of v.standin.suites) expect(existsSync(join(__dirname, '..', s))).toBe(true);
    }
  });

  it("keeps each venue's published limits (docs/exchanges.md \"Rate limits\")", () => {
    expect(VENUE_LIMITS).toEqual({
      binance: { limit: 6000, windowMs: 60_000, callWeight: 10 },
      binanceusdm: { limit: 2400, windowMs: 60_000, callWeight: 5 },
      kucoin: { limit: 4000, windowMs: 30_000, callWeight: 10, perAccount: true },
      kucoinfutures: { limit: 2000, windowMs: 30_000, callWeight: 10, perAccount: true },
    });
  });

  it("gives each exchange's account: its spelling, its passphrase, the names a user types", () => {
    expect(accountOf('Binance')).toMatchObject({ displayName: 'Binance', passphrase: false });
    expect(accountOf('Kucoin')).toMatchObject({ displayName: 'KuCoin', passphrase: true });
    expect(venueOf('Binance', 'futures').account).toBe(accountOf('Binance'));
    expect(venueOf('Kucoin', 'futures').account).toBe(accountOf('Kucoin'));
    expect([exchangeNamed('binance'), exchangeNamed(' KUCOIN '), exchangeNamed('Kucoin'), exchangeNamed('okx')]).toEqual(['Binance', 'Kucoin', 'Kucoin', undefined]);
  });

  it("gives the client config's sign-up links (the spec's `exchangeSignup: { binance, kucoin }`) from the venues, an operator's <NAME>_SIGNUP_URL first", () => {
    expect(signupLinks()).toEqual({ binance: 'https://accounts.binance.com/register', kucoin: 'https://www.kucoin.com/ucenter/signup' });
    // as loadConfig reads KUCOIN_SIGNUP_URL and OKX_SIGNUP_URL (libs/shared config.spec.ts); an exchange no venue trades is not offered (the contract's object is closed)
    expect(signupLinks({ kucoin: 'https://www.kucoin.com/r/rf/GRIDROCKET', okx: 'https://okx.example/ref' })).toEqual({ binance: 'https://accounts.binance.com/register', kucoin: 'https://www.kucoin.com/r/rf/GRIDROCKET' });
  });
});
