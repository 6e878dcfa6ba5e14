/**
 * The watchdog (issue 29, docs/watchdog.md) with an INFINITY spot grid (issue 32), on the paper exchange and
 * on the ccxt adapter against the Binance spot venue stand-in: it checks the bot through the task's
 * desiredOrders / held / recordedFillIds, whatever the grid's style. A fill the bot missed (the venue's word
 * of it lost) is found and applied (the next step's orders placed); an order of the grid cancelled behind
 * the bot's back is flagged and the bot stops (an infinity grid is not re-armed: docs/infinity.md).
 */
import { until } from '@gridrocket/shared/testing/until';
import type { BotConfig } from '@gridrocket/bots';
import { useDeafWorld, WATCHDOG_VENUES } from './support/deaf-provider';

jest.setTimeout(60_000);

const T = Date.now();
// T-5s: 101, above the initial buy at 100; T+1s: 99.8, the initial buy fills
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,LTCUSDT,101`, `${T + 1000},Binance,LTCUSDT,99.8`].join('\n');
// as the create route stores it (bot-infinity.rules.ts infinityBotConfig): start at 100 buying 100 USDT of LTC, steps of 2 %, 20 USDT a step, no buy below 95
const bot: BotConfig = { exchange: 'Binance', symbol: 'LTCUSDT', numOfOrders: 0, orderSize: 0, interval: 0, entryPrice: 100, takeProfit: 0, leverage: 1, style: 'infinity', stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };
const WATCHDOG_MS = 150;

const VENUES = WATCHDOG_VENUES;

describe.each(VENUES)('the watchdog with an infinity grid on %s', (venueName) => {
  const user = 'watchdog-infinity-user';
  const deaf = useDeafWorld(CSV, T - 5000, venueName, user);
  const { hidden, drifts } = deaf;
  const venueOpen = () => deaf.venueOpen('LTCUSDT', (o) => `${o.side} ${o.price} ${o.amount} ${o.clientOrderId}`);

  it('a missed fill of the initial buy is applied (the first step\'s pair placed); a step order cancelled behind its back is flagged and the bot stops', async () => {
    const { world, provider } = deaf;
    // the fill poller (ccxt) polls once an hour: only the watchdog can find what the bot missed
    await world.runner({ exchanges: provider, watchdogMs: WATCHDOG_MS, pollMs: 3_600_000 });
    const id = await world.create(user, 'Spot', bot);
    await world.run({ type: 'StartBot', botId: id, userId: user }, user);
    await until('started', async () => (await world.types(id)).includes('BotStarted'), 20_000);
    const open = await venueOpen();
    // the initial buy alone: ⌊100 ÷ 100⌋ = 1 LTC at 100
    expect(open).toEqual([expect.stringMatching(/^buy 100 1 gr-[0-9a-z]{8}-1-ini$/)]);
    const ini = open[0].split(' ')[3];
    const prefix = ini.slice(0, -'1-ini'.length);
    const paperPort = await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' });

    // behind the bot's back: the initial buy fills and the venue's word of it is lost
    hidden.add(ini);
    world.venue.advanceTo(T + 1000);
    await until('the initial buy filled on the venue', async () => (await paperPort.orderByClientId('LTCUSDT', ini))?.status === 'filled', 20_000);
    await new Promise((r) => setTimeout(r, WATCHDOG_MS * 4));
    expect((await world.types(id)).includes('OrderFilled')).toBe(false); // the bot missed it
    hidden.delete(ini); // the venue's trade history has it now

    const missed = await until('a missed-fill drift', async () => (await drifts(id)).find((d) => d.kind === 'missed-fill'), 20_000);
    expect(missed).toMatchObject({ action: 'repaired', actual: 'buy 1 at 100 filled' });
    // repaired: the fill is recorded and the first step's pair rests one step either side of 100:
    // sell 102 for ⌊20 ÷ 102⌋ = 0.196 (of the 0.999 held), buy 98 for ⌊20 ÷ 98⌋ = 0.204
    await until('the fill applied and the pair placed', async () => (await world.types(id)).includes('TakeProfitPlaced') && (await venueOpen()).length === 2, 20_000);
    expect(await venueOpen()).toEqual([`buy 98 0.204 ${prefix}2-ib`, `sell 102 0.196 ${prefix}2-is`]);
    expect((await world.types(id)).filter((t) => t === 'OrderFilled')).toHaveLength(1);

    // behind the bot's back: the trader cancels its step buy on the exchange, and the bot is not told
    hidden.add(`${prefix}2-ib`);
    await paperPort.cancelOrder('LTCUSDT', `${prefix}2-ib`);
    const cancelled = await until('an order-missing drift', async () => (await drifts(id)).find((d) => d.kind === 'order-missing'), 20_000);
    expect(cancelled).toMatchObject({ subject: `${prefix}2-ib`, action: 'flagged', expected: 'buy 0.204 at 98', actual: 'cancelled on the exchange outside GridRocket' });
    const state = await until('failed', async () => {
      const st = await world.state(id);
      return st.kind === 'live' && st.status === 'stopped' && st.lastError ? st : null;
    }, 20_000);
    expect(state.lastError).toBe('The buy order at 98 was cancelled on the exchange outside GridRocket; an infinity grid stops rather than place it again');
  });
});
