import type { Fill, Order } from '@gridrocket/exchanges';
import type { DesiredOrder } from '../grid/grid.types';
import { checkAgainstVenue, OUTSIDE_LADDER_MS, type BotView, type VenueView } from './watchdog';

const buy = (id: string, price: number): DesiredOrder => ({ clientOrderId: id, role: 'buy', side: 'buy', type: 'limit', price, amount: 0.01, reduceOnly: false, cycle: 1, level: 0 });
const order = (id: string, price: number, status: Order['status'] = 'open', filled = 0): Order => ({ clientOrderId: id, exchangeOrderId: id, symbol: 'BTCUSDT', side: 'buy', price, amount: 0.01, filled, status, updatedAt: 1 });
const fill = (id: string, fillId: string): Fill => ({ fillId, clientOrderId: id, exchangeOrderId: id, symbol: 'BTCUSDT', side: 'buy', price: 60000, amount: 0.01, fee: 0.6, feeAsset: 'USDT', feeCost: 0.6, timestamp: 5 });

const bot = (over: Partial<BotView> = {}): BotView => ({
  botId: 'b', run: 3, desired: [buy('b0', 60000), buy('b1', 59500)], recordedFills: new Set(), position: 0, amountStep: 0.00001,
  market: 'spot', base: 'BTC', refusals: 0, follows: false, outsideSince: null, ...over,
});
const venue = (over: Partial<VenueView> = {}): VenueView => ({ open: [order('b0', 60000), order('b1', 59500)], fills: [], lookedUp: new Map(), held: 0, ...over });
const kinds = (v: ReturnType<typeof checkAgainstVenue>) => v.facts.map((f) => (f.type === 'BotDriftDetected' ? `${f.data.kind} ${f.data.subject} ${f.data.action}` : f.type === 'BotNotTrading' ? `not-trading ${f.data.reason}` : f.type));

describe('the watchdog decision (pure)', () => {
  it('given the venue equals the bot, then nothing is said', () => {
    expect(kinds(checkAgainstVenue(bot(), venue(), 1000))).toEqual([]);
  });

  it('given a fill of the bot it has not recorded, then it is applied (repaired)', () => {
    const f = fill('b0', 'f1');
    const r = checkAgainstVenue(bot(), venue({ open: [order('b1', 59500)], fills: [f] }), 1000);
    expect(kinds(r)).toEqual(['missed-fill f1 repaired']);
    expect(r.missedFills).toEqual([f]);
  });

  it('given a recorded fill, then it is no drift', () => {
    expect(kinds(checkAgainstVenue(bot({ recordedFills: new Set(['f1']) }), venue({ fills: [fill('b0', 'f1')] }), 1000))).toEqual([]);
  });

  it('given a desired order the venue never had, then it is placed (repaired); one the venue reports cancelled, then it is handed to the replacement (recorded by the converge that replaces it)', () => {
    const never = checkAgainstVenue(bot(), venue({ open: [order('b1', 59500)], lookedUp: new Map([['b0', null]]) }), 1000);
    expect(kinds(never)).toEqual(['order-missing b0 repaired']);
    const cancelled = order('b0', 60000, 'cancelled');
    const outside = checkAgainstVenue(bot(), venue({ open: [order('b1', 59500)], lookedUp: new Map([['b0', cancelled]]) }), 1000);
    expect(kinds(outside)).toEqual([]);
    expect(outside.cancelledOutside).toEqual([cancelled]);
  });

  it('given an order under the bot\'s id it does not expect, then it is flagged and left', () => {
    expect(kinds(checkAgainstVenue(bot(), venue({ open: [order('b0', 60000), order('b1', 59500), order('x9', 50000)] }), 1000))).toEqual(['unknown-order x9 flagged']);
  });

  it('given a spot balance lower than the position by a step or more, then it is flagged; a higher one is no drift', () => {
    expect(kinds(checkAgainstVenue(bot({ position: 0.02 }), venue({ held: 0.01 }), 1000))).toEqual(['balance-short BTC flagged']);
    expect(kinds(checkAgainstVenue(bot({ position: 0.02 }), venue({ held: 0.05 }), 1000))).toEqual([]);
  });

  it('given orders that should rest and none does, then the bot is not trading; not while they are being replaced', () => {
    const cancelled = (id: string, p: number) => order(id, p, 'cancelled');
    const filled = (id: string, p: number) => order(id, p, 'filled');
    const stuck = checkAgainstVenue(bot(), venue({ open: [], lookedUp: new Map([['b0', filled('b0', 60000)], ['b1', filled('b1', 59500)]]) }), 1000);
    expect(kinds(stuck)).toContain('not-trading no-resting-order');
    const replacing = checkAgainstVenue(bot(), venue({ open: [], lookedUp: new Map([['b0', cancelled('b0', 60000)], ['b1', cancelled('b1', 59500)]]) }), 1000);
    expect(kinds(replacing)).not.toContain('not-trading no-resting-order');
  });

  it('given repeated venue refusals, then the bot is not trading', () => {
    expect(kinds(checkAgainstVenue(bot({ refusals: 3 }), venue(), 1000))).toEqual(['not-trading venue-refusals']);
  });

  it('given the price above the ladder with nothing held and no follow, then after the limit the bot is not trading; with follow never', () => {
    const first = checkAgainstVenue(bot(), venue({ price: 65000 }), 1000);
    expect(kinds(first)).toEqual([]);
    expect(first.outsideSince).toBe(1000);
    expect(kinds(checkAgainstVenue(bot({ outsideSince: 1000 }), venue({ price: 65000 }), 1000 + OUTSIDE_LADDER_MS))).toEqual(['not-trading price-outside-ladder']);
    expect(kinds(checkAgainstVenue(bot({ outsideSince: 1000, follows: true }), venue({ price: 65000 }), 1000 + OUTSIDE_LADDER_MS))).toEqual([]);
    expect(checkAgainstVenue(bot({ outsideSince: 1000 }), venue({ price: 59000 }), 2000).outsideSince).toBeNull();
  });
});
