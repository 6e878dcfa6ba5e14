import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseUnits } from './fixed-point';
import { PaperVenue } from './paper-venue';
import { VenueStreamFeed } from './paper-venue-feed';
import { paperFeedKind, paperFeedOrigin, paperFeedVenues } from './paper-feed.setup';
import { RandomWalkFeed } from './paper-price-feed';

describe('VenueStreamFeed: the paper exchange on the venues\' prices', () => {
  const dir = mkdtempSync(join(tmpdir(), 'venue-feed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let now = 1_000_000;
  const feed = () => new VenueStreamFeed({ venues: [{ exchange: 'Binance', market: 'spot' }], clock: () => now });

  it('given a resting buy, when the venue\'s price crosses it, then it fills; between prices nothing moves', () => {
    const venue = new PaperVenue({ store: join(dir, 'a.sqlite'), feed: feed() });
    const f = venue.feed as VenueStreamFeed;
    f.receive('Binance', 'BTCUSDT', 61000.5);
    expect(venue.advanceTo(now)).toEqual([{ ms: now, exchange: 'Binance', symbol: 'BTCUSDT', price: parseUnits('61000.5') }]);
    const account = venue.account('u', 'Binance', 'spot');
    venue.createOrder(account, { symbol: 'BTCUSDT', side: 'buy', amount: 0.01, price: 60000, clientOrderId: 'b1' });
    now += 60_000;
    expect(venue.advanceTo(now)).toEqual([]); // no invented moves
    expect(venue.priceUnits('Binance', 'BTCUSDT')).toBe(parseUnits('61000.5'));
    f.receive('Binance', 'BTCUSDT', 59999.99);
    venue.advanceTo(now);
    expect(venue.openOrders(account, 'BTCUSDT')).toEqual([]);
    expect(venue.fills(account, 'BTCUSDT', 0)).toMatchObject([{ side: 'buy', price: parseUnits('60000') }]);
    venue.close();
  });

  it('a restart resumes on the last prices heard; a feed of another kind does not take them', () => {
    const path = join(dir, 'b.sqlite');
    const first = new PaperVenue({ store: path, feed: feed() });
    (first.feed as VenueStreamFeed).receive('Binance', 'ETHUSDT', 3123.45);
    first.advanceTo(++now);
    first.close();
    const again = new PaperVenue({ store: path, feed: feed() });
    expect(again.priceUnits('Binance', 'ETHUSDT')).toBe(parseUnits('3123.45'));
    again.close();
    const walk = new PaperVenue({ store: path, feed: new RandomWalkFeed({ seed: 1 }) });
    expect(walk.priceUnits('Binance', 'ETHUSDT')).toBe(parseUnits('3300'));
    walk.close();
  });

  it('says when its stream is down and why, and when it is back', () => {
    const f = feed();
    expect(f.status()).toEqual({ kind: 'venue', streams: [{ exchange: 'Binance', market: 'spot', live: false, since: null, lastPriceAt: null }] });
    f.streamState('Binance', { live: true, at: 5 });
    f.streamState('Binance', { live: false, at: 9, reason: 'NetworkError' });
    expect(f.status().streams[0]).toMatchObject({ live: false, since: 9, reason: 'NetworkError' });
    f.streamState('Binance', { live: true, at: 12 });
    expect(f.status().streams[0]).toEqual({ exchange: 'Binance', market: 'spot', live: true, since: 12, lastPriceAt: null });
  });

  it('ignores what is no price, an exchange it does not follow and a symbol outside the catalogue', () => {
    const f = feed();
    f.receive('Binance', 'BTCUSDT', NaN);
    f.receive('Binance', 'BTCUSDT', 0);
    f.receive('Kucoin', 'BTCUSDT', 60000);
    f.receive('Binance', 'PEPEUSDT', 0.00001);
    expect(f.advanceTo(now)).toEqual([]);
  });
});

describe('PAPER_FEED configuration', () => {
  it('walk by default, csv when PAPER_PRICES is set, venue on request; a wrong value is named', () => {
    expect(paperFeedKind({})).toBe('walk');
    expect(paperFeedKind({ paperPrices: '/p.csv' })).toBe('csv');
    expect(paperFeedKind({ paperFeed: 'Venue' })).toBe('venue');
    expect(() => paperFeedKind({ paperFeed: 'live' })).toThrow('PAPER_FEED must be walk, csv or venue');
    expect(() => paperFeedKind({ paperFeed: 'csv' })).toThrow('PAPER_FEED=csv needs PAPER_PRICES');
  });

  it('one stream per exchange, Binance and KuCoin spot by default', () => {
    expect(paperFeedVenues(undefined)).toEqual([{ exchange: 'Binance', market: 'spot' }, { exchange: 'Kucoin', market: 'spot' }]);
    expect(paperFeedVenues('binanceusdm, kucoinfutures')).toEqual([{ exchange: 'Binance', market: 'futures' }, { exchange: 'Kucoin', market: 'futures' }]);
    expect(() => paperFeedVenues('binance,binanceusdm')).toThrow('one stream per exchange');
    expect(() => paperFeedVenues('bybit')).toThrow('is not one of');
  });

  it('an origin for every venue, or one per venue', () => {
    expect(paperFeedOrigin(undefined)).toBeUndefined();
    expect(paperFeedOrigin('http://127.0.0.1:9000/')!('kucoin')).toBe('http://127.0.0.1:9000');
    const per = paperFeedOrigin('binance=http://127.0.0.1:1,kucoin=http://127.0.0.1:2')!;
    expect([per('binance'), per('kucoin'), per('binanceusdm')]).toEqual(['http://127.0.0.1:1', 'http://127.0.0.1:2', undefined]);
    expect(() => paperFeedOrigin('binance=ftp://x')).toThrow('PAPER_FEED_ORIGIN');
  });
});
