import { ValidationError } from '@gridrocket/shared';
import { parseCreateBot, parseEditBot } from './bot.rules';

const base = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 100, entryPrice: 60000 };

function fieldErrors(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return (e as any).errors ?? (e as any).fields ?? (e as any).details ?? e;
    throw e;
  }
  return null;
}

describe('bot rules: a take-profit must cover the round-trip fees (issue 10, finding 8)', () => {
  it('refuses a spot take-profit of 0.1 % at 0.1 % fees with a field message that says the minimum', () => {
    const err = fieldErrors(() => parseCreateBot({ ...base, botType: 'Spot', takeProfit: 0.1 }));
    expect(JSON.stringify(err)).toContain('takeProfit');
    expect(JSON.stringify(err)).toContain('at least 0.21 %');
  });

  it('accepts the minimum itself, and futures minimums follow the futures maker fee', () => {
    expect(parseCreateBot({ ...base, botType: 'Spot', takeProfit: 0.21 }).config.takeProfit).toBe(0.21);
    expect(parseCreateBot({ ...base, botType: 'Futures', takeProfit: 0.05, leverage: 2 }).config.takeProfit).toBe(0.05);
    expect(JSON.stringify(fieldErrors(() => parseCreateBot({ ...base, botType: 'Futures', takeProfit: 0.04, leverage: 2 })))).toContain('at least 0.05 %');
  });

  it('applies at edit too', () => {
    expect(JSON.stringify(fieldErrors(() => parseEditBot({ ...base, takeProfit: 0.1 }, 'Spot')))).toContain('at least 0.21 %');
    expect(JSON.stringify(fieldErrors(() => parseEditBot({ ...base, takeProfit: 0.01 })))).toContain('at least 0.05 %');
    expect(parseEditBot({ ...base, takeProfit: 0.3 }, 'Spot').config.takeProfit).toBe(0.3);
  });
});
