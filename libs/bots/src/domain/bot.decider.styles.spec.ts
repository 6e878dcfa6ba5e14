/**
 * Issue 42: the decider and the view ask the style registry (styles/registry.ts, BotStyle) for what they said
 * of a neutral and an infinity bot; the same texts and fields as before.
 */
import { fieldErrors } from '../testing/spec-helpers';
import { decideBot } from './bot.decider';
import type { BotConfigEdit, BotEvent } from './bot.events';
import { foldBot as fold, futuresBody as futures } from './bot.rules.fixtures';
import { parseCreateBot } from './bot.rules';
import { botSummary, toBotView } from './bot.view';

const ctx = { userId: 'u1' };
const createdAs = (botType: 'Spot' | 'Futures', config: object): BotEvent => ({ type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType, ...parseCreateBot({ ...futures, botType, leverage: botType === 'Spot' ? 1 : futures.leverage }).config, ...config } });
const edit = (config: object) => ({ type: 'EditBot' as const, botId: 'b1', ...ctx, config: config as BotConfigEdit });

describe('the decider asks the bot\'s style (issue 42)', () => {
  it('a neutral grid that holds a position is not turned: its position is called a neutral grid position', () => {
    const held: BotEvent[] = [
      createdAs('Futures', { direction: 'neutral' }),
      { type: 'BotStartRequested', data: { botId: 'b1' } },
      { type: 'BotStarted', data: { botId: 'b1', pid: 1 } },
      { type: 'OrderFilled', data: { botId: 'b1', run: 1, fillId: 'f1', clientOrderId: 'gr-x-1-b0', side: 'buy', price: 60000, amount: 0.01, fee: 0.12, cycle: 1, level: 0, late: false, at: 1 } },
      { type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: false } },
      { type: 'BotStopped', data: { botId: 'b1', pid: -1 } },
    ];
    expect(fieldErrors(() => decideBot(edit({ direction: 'long' }), fold(held)))).toEqual([
      { field: 'direction', message: 'direction cannot change while the bot holds a neutral grid position: stop it with "close position" first' },
    ]);
  });

  it('a spot bot edited to the neutral direction is refused: the neutral grid trades futures only', () => {
    expect(fieldErrors(() => decideBot(edit({ direction: 'neutral' }), fold([createdAs('Spot', {})])))).toEqual([
      { field: 'direction', message: 'direction neutral applies to futures bots only: a spot bot buys its ladder (long)' },
    ]);
  });

  it('the view of an infinity bot has its style and settings; a plug-in style\'s its name only; a ladder\'s none', () => {
    const infinity = { numOfOrders: 0, orderSize: 0, interval: 0, takeProfit: 0, style: 'infinity', stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 0 };
    const view = toBotView(botSummary(fold([createdAs('Spot', { ...infinity })]) as never));
    expect(view).toMatchObject({ style: 'infinity', steppercent: 2, quotevalue: 20, lowerprice: 95, initialquote: 0 });
    const toy = toBotView(botSummary(fold([createdAs('Spot', { style: 'toy', stepPercent: 2 })]) as never));
    expect(toy.style).toBe('toy');
    expect(toy).not.toHaveProperty('steppercent');
    expect(toBotView(botSummary(fold([createdAs('Spot', {})]) as never))).not.toHaveProperty('style');
  });
});
