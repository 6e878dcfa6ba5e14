import { randomUUID } from 'node:crypto';
import { ValidationError } from '@gridrocket/shared';
import { BotsController } from './bots.controller';

/**
 * PUT /api/bots/{id} parses the edit with the bot's own type: a spot bot's take-profit is held to the
 * spot minimum (0.21 % at the 0.1 % maker fee), not the futures one (0.05 %). The market check is a
 * no-op here (the market cannot be asked), so only the parse can refuse.
 */
describe('bots controller: an edit is parsed with the bot\'s type', () => {
  const id = randomUUID();
  const edit = { exchange: 'Binance', numOfOrders: 3, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 0.1 };
  const ctx = { userId: 'u-1', correlationId: 'c-1' };

  function controller(botType: 'Spot' | 'Futures', owner = 'u-1') {
    const execute = jest.fn(async () => {
      throw new Error('reached the decider');
    });
    const doc = { id, userid: owner, status: 'stopped', s: { botType, config: { symbol: 'BTCUSDT', leverage: 1 } } };
    const reads = { get: jest.fn(async () => doc) };
    const market = { assert: jest.fn(async () => undefined) };
    const c = new BotsController({ execute } as never, {} as never, reads as never, market as never, {} as never);
    return { c, execute };
  }

  const refusal = async (p: Promise<unknown>) => p.then(() => null, (err) => (err instanceof ValidationError ? err.errors : err));

  it('refuses 0.1 % on a spot bot with the spot minimum, before anything is decided', async () => {
    const { c, execute } = controller('Spot');
    expect(await refusal(c.edit(id, edit, {}, ctx, undefined, {} as never))).toEqual([
      { field: 'takeProfit', message: 'Take profit must be at least 0.21 %: the buy and the take-profit sell each pay the 0.1 % maker fee' },
    ]);
    expect(execute).not.toHaveBeenCalled();
  });

  it('lets 0.1 % through on a futures bot (its minimum is 0.05 %)', async () => {
    const { c, execute } = controller('Futures');
    await expect(c.edit(id, edit, {}, ctx, undefined, {} as never)).rejects.toThrow('reached the decider');
    expect(execute).toHaveBeenCalledTimes(1);
  });
});
