import { PaperFeedDriver } from './paper-feed-driver';
import { PaperVenue } from './paper-venue';
import { CsvReplayFeed, RandomWalkFeed } from './paper-price-feed';

describe('paper feed driver', () => {
  it("'wall' mode moves the feed to the clock's time; 'elapsed' mode by the elapsed time × speed", () => {
    let now = 1_700_000_000_000;
    const walk = new PaperVenue({ store: ':memory:', feed: new RandomWalkFeed({ seed: 1 }) });
    const wall = new PaperFeedDriver(walk, { clock: () => now, mode: 'wall' });
    wall.tick();
    expect(walk.nowMs()).toBe(now);
    now += 5000;
    wall.tick();
    expect(walk.nowMs()).toBe(now);
    walk.close();

    const csv = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed('ms,exchange,symbol,price\n1000,Binance,BTCUSDT,1\n9000,Binance,BTCUSDT,2\n') });
    csv.advanceTo(1000);
    const elapsed = new PaperFeedDriver(csv, { clock: () => now, speed: 3 });
    expect(elapsed.tick()).toEqual([]); // the first tick only takes the clock's reading
    now += 1000;
    elapsed.tick();
    expect(csv.nowMs()).toBe(4000);
    csv.close();
  });
});
