import fc from 'fast-check';
import {
  botHash,
  buyOrderId,
  CLIENT_ORDER_ID_MAX_LENGTH,
  isOwnClientOrderId,
  parseClientOrderId,
  takeProfitOrderId,
} from './client-order-id';

const BOT = '3f2b8c1e-9a4d-4e0b-8f6a-1c2d3e4f5a6b';

describe('client order ids', () => {
  it('given a bot, cycle and level, then the buy id is gr-<hash>-<cycle>-b<level>', () => {
    const h = botHash(BOT);
    expect(h).toMatch(/^[0-9a-z]{8}$/);
    expect(buyOrderId(BOT, 1, 0)).toBe(`gr-${h}-1-b0`);
    expect(takeProfitOrderId(BOT, 12, 3)).toBe(`gr-${h}-12-tp3`);
  });

  it('given the same inputs twice, then the same id comes out (deterministic)', () => {
    expect(buyOrderId(BOT, 7, 4)).toBe(buyOrderId(BOT, 7, 4));
    expect(botHash(BOT)).not.toBe(botHash(BOT.replace('a6b', 'a6c')));
  });

  it('given an id, then it parses back; foreign ids do not', () => {
    expect(parseClientOrderId(buyOrderId(BOT, 7, 4))).toEqual({ kind: 'buy', hash: botHash(BOT), cycle: 7, level: 4, rearm: 0 });
    expect(parseClientOrderId(buyOrderId(BOT, 7, 4, 2))).toEqual({ kind: 'buy', hash: botHash(BOT), cycle: 7, level: 4, rearm: 2 });
    expect(buyOrderId(BOT, 7, 4, 2)).toBe(`${buyOrderId(BOT, 7, 4)}r2`);
    expect(parseClientOrderId(`${takeProfitOrderId(BOT, 2, 9)}r1`)).toBeNull(); // only a buy is re-armed under a suffix
    expect(parseClientOrderId(`${buyOrderId(BOT, 7, 4)}r0`)).toBeNull();
    expect(parseClientOrderId(takeProfitOrderId(BOT, 2, 9))).toEqual({ kind: 'take-profit', hash: botHash(BOT), cycle: 2, seq: 9 });
    for (const foreign of ['web_123', 'x-AB12', '', `gr-${botHash(BOT)}-01-b1`, `gr-${botHash(BOT)}-0-b1`]) {
      expect(parseClientOrderId(foreign)).toBeNull();
    }
    expect(isOwnClientOrderId(BOT, buyOrderId(BOT, 1, 1))).toBe(true);
    expect(isOwnClientOrderId('other-bot', buyOrderId(BOT, 1, 1))).toBe(false);
  });

  it('given counters that are not whole numbers, then it throws', () => {
    expect(() => buyOrderId(BOT, 0, 1)).toThrow(RangeError);
    expect(() => takeProfitOrderId(BOT, 1, 0)).toThrow(RangeError);
    expect(() => buyOrderId(BOT, 1, -1)).toThrow(RangeError);
  });

  it('property: ids are ≤ 32 chars of [A-Za-z0-9-_], parse back, and distinct inputs give distinct ids', () => {
    const cycle = fc.integer({ min: 1, max: 999_999_999 });
    const n = fc.integer({ min: 0, max: 999_999 });
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), cycle, n, cycle, n, fc.boolean(), (botId, c1, n1, c2, n2, tp) => {
        const make = (c: number, k: number, isTp: boolean) => (isTp ? takeProfitOrderId(botId, c, k + 1) : buyOrderId(botId, c, k));
        const a = make(c1, n1, tp);
        expect(a.length).toBeLessThanOrEqual(CLIENT_ORDER_ID_MAX_LENGTH);
        expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(isOwnClientOrderId(botId, a)).toBe(true);
        const parsed = parseClientOrderId(a);
        expect(parsed?.cycle).toBe(c1);
        const b = make(c2, n2, !tp);
        expect(b).not.toBe(a);
        if (c1 !== c2 || n1 !== n2) expect(make(c2, n2, tp)).not.toBe(a);
      }),
    );
  });
});
