/** Issue 32, neutral: the API's rules and the decider accept `direction: 'neutral'` for futures bots only. */
import { fieldErrors } from '../testing/spec-helpers';
import { decideBot } from './bot.decider';
import { gridHalves } from './bot-market.rules';
import { parseCreateBot, parseEditBot } from './bot.rules';
import { foldBot as fold, futuresBody as futures } from './bot.rules.fixtures';
import { botSummary, toBotView } from './bot.view';
import type { BotEvent } from './bot.events';

const NEUTRAL_SPOT = 'direction neutral applies to futures bots only: a spot bot buys its ladder (long)';

describe('a neutral direction in the bot rules', () => {
  it('a futures bot may be neutral, and it is stored so', () => {
    expect(parseCreateBot({ ...futures, direction: 'neutral' }).config.direction).toBe('neutral');
    expect((parseEditBot({ ...futures, direction: 'neutral' }, 'Futures').config as { direction?: string }).direction).toBe('neutral');
  });

  it('a spot bot cannot be neutral: a field message on create and on edit', () => {
    expect(fieldErrors(() => parseCreateBot({ ...futures, botType: 'Spot', leverage: 1, direction: 'neutral' }))).toEqual([{ field: 'direction', message: NEUTRAL_SPOT }]);
    expect(fieldErrors(() => parseEditBot({ ...futures, direction: 'neutral' }, 'Spot'))).toEqual([{ field: 'direction', message: NEUTRAL_SPOT }]);
  });

  it('settings a neutral grid does not have are refused field by field', () => {
    expect(fieldErrors(() => parseCreateBot({ ...futures, direction: 'neutral', spacing: 'percent', interval: 1, sizeScale: 1.5, trailingDeviation: 1 }))).toEqual([
      { field: 'spacing', message: 'spacing percent applies to long and short grids: a neutral grid has equal steps' },
      { field: 'sizeScale', message: 'sizeScale applies to long and short grids: a neutral grid has equal sizes' },
      { field: 'trailingDeviation', message: "trailingDeviation applies to long and short grids: a neutral grid's stop-loss is a price below its lowest buy" },
    ]);
    // an edit of a stored neutral bot is checked as neutral
    expect(fieldErrors(() => parseEditBot({ ...futures, sizeScale: 2 }, 'Futures', { direction: 'neutral' }))).toEqual([
      { field: 'sizeScale', message: 'sizeScale applies to long and short grids: a neutral grid has equal sizes' },
    ]);
  });

  it('its two halves: the buys from one interval below the reference down, the sells from one interval above it up', () => {
    // 60000 − 100 = 59900 (long), 60000 + 100 = 60100 (short)
    expect(gridHalves({ ...futures, direction: 'neutral' as const }).map((h) => [h.direction ?? 'long', h.entryPrice])).toEqual([['long', 59900], ['short', 60100]]);
    expect(gridHalves({ ...futures, direction: 'short' as const })).toHaveLength(1);
  });
});

describe('a neutral direction in the bot decider', () => {
  it('the bot page shows it; a spot bot cannot be edited to neutral', () => {
    const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Futures', ...parseCreateBot({ ...futures, direction: 'neutral' }).config } };
    expect(toBotView(botSummary(fold([created]) as never)).direction).toBe('neutral');
    const spot: BotEvent = { type: 'BotCreated', data: { botId: 'b2', userId: 'u1', botType: 'Spot', ...parseCreateBot({ ...futures, botType: 'Spot', leverage: 1 }).config } };
    expect(fieldErrors(() => decideBot({ type: 'EditBot', botId: 'b2', userId: 'u1', config: { ...parseCreateBot({ ...futures, botType: 'Spot', leverage: 1 }).config, direction: 'neutral' } }, fold([spot])))).toEqual([{ field: 'direction', message: NEUTRAL_SPOT }]);
  });
});
