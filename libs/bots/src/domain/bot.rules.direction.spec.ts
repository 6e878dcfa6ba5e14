/** Issue 32: a bot's direction in the API's rules and the decider (futures only; absent = long). */
import { fieldErrors } from '../testing/spec-helpers';
import { decideBot, positionStartMessage, type LiveBot } from './bot.decider';
import { parseCreateBot, parseEditBot } from './bot.rules';
import { foldBot as fold, futuresBody as futures } from './bot.rules.fixtures';
import { toBotView, botSummary } from './bot.view';
import type { BotEvent } from './bot.events';

describe('direction in the bot rules', () => {
  it('a futures bot may be short; without a direction it is the spec\'s long bot (nothing stored)', () => {
    expect(parseCreateBot({ ...futures, direction: 'short' }).config.direction).toBe('short');
    expect(parseCreateBot(futures).config).not.toHaveProperty('direction');
    expect(parseCreateBot({ ...futures, direction: 'long' }).config.direction).toBe('long');
  });

  it('a spot bot cannot be short: a field message, not a failure', () => {
    expect(fieldErrors(() => parseCreateBot({ ...futures, botType: 'Spot', leverage: 1, direction: 'short' }))).toEqual([
      { field: 'direction', message: 'direction short applies to futures bots only: a spot bot buys its ladder (long)' },
    ]);
    expect(fieldErrors(() => parseEditBot({ ...futures, direction: 'short' }, 'Spot'))).toEqual([
      { field: 'direction', message: 'direction short applies to futures bots only: a spot bot buys its ladder (long)' },
    ]);
  });

  it('an unknown direction is refused with the choices', () => {
    expect(fieldErrors(() => parseCreateBot({ ...futures, direction: 'sideways' }))).toEqual([{ field: 'direction', message: 'direction must be long or short or neutral' }]);
  });

  it('short mirrors the cross-field checks: a stop-loss price above the entry, a follow limit below it; no "ladder reaches zero" check', () => {
    expect(fieldErrors(() => parseCreateBot({ ...futures, direction: 'short', stopLossPrice: 59000 }))).toEqual([{ field: 'stopLossPrice', message: 'stopLossPrice must be above the entry price of a short grid' }]);
    expect(parseCreateBot({ ...futures, direction: 'short', stopLossPrice: 63000 }).config.stopLossPrice).toBe(63000);
    expect(fieldErrors(() => parseCreateBot({ ...futures, direction: 'short', reanchor: 'follow', reanchorLimit: 61000 }))).toEqual([{ field: 'reanchorLimit', message: 'reanchorLimit must be below the entry price of a short grid' }]);
    // long: 3 rungs of interval 30000 from 60000 reach 0; short: 60000, 90000, 120000
    expect(fieldErrors(() => parseCreateBot({ ...futures, interval: 30000 }))).toEqual([{ field: 'numOfOrders', message: 'The lowest order would be at 0: lower the grid size or the price interval' }]);
    expect(parseCreateBot({ ...futures, interval: 30000, direction: 'short' }).config.interval).toBe(30000);
  });

  it('an edit keeps the stored direction for its checks, and "" turns it back to long', () => {
    expect(fieldErrors(() => parseEditBot({ ...futures, stopLossPrice: 59000 }, 'Futures', { direction: 'short' }))).toEqual([{ field: 'stopLossPrice', message: 'stopLossPrice must be above the entry price of a short grid' }]);
    expect((parseEditBot({ ...futures, direction: '' }, 'Futures', { direction: 'short' }).config as Record<string, unknown>).direction).toBeNull();
  });
});

describe('direction in the bot decider', () => {
  const ctx = { userId: 'u1' };
  const created = (direction?: 'short'): BotEvent => ({ type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Futures', ...parseCreateBot({ ...futures, ...(direction ? { direction } : {}) }).config } });

  it('the view shows a short bot\'s direction; an edit to long while flat is recorded and the bot is long again', () => {
    const state = fold([created('short')]);
    expect(toBotView(botSummary(state as never)).direction).toBe('short');
    const edit = parseEditBot({ ...futures, direction: '' }, 'Futures', { direction: 'short' }).config;
    const events = decideBot({ type: 'EditBot', botId: 'b1', ...ctx, config: edit }, state);
    const after = fold([created('short'), ...events]);
    expect(toBotView(botSummary(after as never))).not.toHaveProperty('direction');
  });

  it('turning a bot that holds a position is refused with a field message', () => {
    const held: BotEvent[] = [
      created('short'),
      { type: 'BotStartRequested', data: { botId: 'b1' } },
      { type: 'BotStarted', data: { botId: 'b1', pid: 1 } },
      { type: 'OrderFilled', data: { botId: 'b1', run: 1, fillId: 'f1', clientOrderId: 'gr-x-1-b0', side: 'sell', price: 60000, amount: 0.01, fee: 0.12, cycle: 1, level: 0, late: false, at: 1 } },
      { type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: false } },
      { type: 'BotStopped', data: { botId: 'b1', pid: -1 } },
    ];
    const state = fold(held);
    // the start of a bot that is short says so (issue 29's confirmation, mirrored): sold 0.01 for 60000 × 0.01 = 600
    expect(positionStartMessage(state as LiveBot)).toMatch(/^The bot is short 0\.01 BTC \(sold for 600\.00 USDT\)\. Starting it places its ladder again: up to 0\.03 BTC more sold short/);
    const edit = parseEditBot({ ...futures, direction: 'long' }, 'Futures', { direction: 'short' }).config;
    expect(fieldErrors(() => decideBot({ type: 'EditBot', botId: 'b1', ...ctx, config: edit }, state))).toEqual([
      { field: 'direction', message: 'direction cannot change while the bot holds a short position: stop it with "close position" first' },
    ]);
  });
});
