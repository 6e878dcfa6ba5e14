/**
 * Issue 29 (Found 2): a start of a bot that holds a position says what it holds and what the new ladder
 * adds, and needs a confirmation; a spot stop may sell what the bot holds at market.
 */
import { ConflictError, ValidationError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { BotCommand, LiveBot, PositionHeldError, botDecider, heldPosition } from './bot.decider';
import { BotConfig, BotEvent } from './bot.events';

const config: BotConfig = { exchange: 'Binance', symbol: 'BTC/USDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', ...config } };
const startRequested: BotEvent = { type: 'BotStartRequested', data: { botId: 'b1' } };
const started: BotEvent = { type: 'BotStarted', data: { botId: 'b1', pid: 42 } };
const stopped: BotEvent = { type: 'BotStopped', data: { botId: 'b1', pid: -1 } };
const fill = (id: string, side: 'buy' | 'sell', price: number, amount: number, extra: object = {}): BotEvent =>
  side === 'buy'
    ? { type: 'OrderFilled', data: { botId: 'b1', run: 1, fillId: id, clientOrderId: `c-${id}`, side, price, amount, fee: 0, cycle: 1, at: 1, level: 0, late: false, ...extra } }
    : { type: 'TakeProfitFilled', data: { botId: 'b1', run: 1, fillId: id, clientOrderId: `c-${id}`, side, price, amount, fee: 0, cycle: 1, at: 2, tpSeq: 1, profit: 1, ...extra } };
const stopWith = (cancelAllOrders: boolean, closePosition?: boolean): BotEvent => ({ type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders, ...(closePosition ? { closePosition } : {}) } });

const { given } = deciderSpec(botDecider);
const start: BotCommand = { type: 'StartBot', botId: 'b1', userId: 'u1' };
const fold = (...events: BotEvent[]) => events.reduce(botDecider.evolve, botDecider.initialState) as LiveBot;

describe('a start of a bot that holds a position (issue 29)', () => {
  const holding = [created, startRequested, started, fill('f1', 'buy', 60000, 0.01), fill('f2', 'buy', 59900, 0.01), stopWith(false), stopped];

  it('given a bot that bought 0.02 BTC and stopped, when started without confirming, then 409 saying what it holds and what the ladder adds', () => {
    given(...holding)
      .when(start)
      .thenThrows(PositionHeldError, /holds 0\.02 BTC \(bought for 1,199\.00 USDT\).*up to 0\.05 BTC more for 2,990\.00 USDT.*confirmPosition=true/);
  });
  it('given the same bot, when started with confirmPosition, then BotStartRequested', () => {
    given(...holding).when({ ...start, confirmPosition: true }).then(startRequested);
  });
  it('given a bot whose take-profit sold what it bought, when started, then no confirmation is needed', () => {
    given(created, startRequested, started, fill('f1', 'buy', 60000, 0.01), fill('f2', 'sell', 60600, 0.01), stopWith(false), stopped).when(start).then(startRequested);
  });
  it('a buy whose fee was taken in the coin holds its net amount; a sale takes its share of the cost', () => {
    const bot = fold(created, startRequested, started, fill('f1', 'buy', 60000, 0.01, { netAmount: 0.00999 }), fill('f2', 'buy', 50000, 0.01));
    expect(heldPosition(bot)).toEqual({ amount: 0.01999, cost: 1100 });
    const after = fold(created, startRequested, started, fill('f1', 'buy', 60000, 0.01), fill('f2', 'buy', 50000, 0.01), fill('f3', 'sell', 61000, 0.01));
    expect(heldPosition(after)).toEqual({ amount: 0.01, cost: 550 });
  });
  it('given a bot stopped with "sell what the bot holds at market", when started, then nothing is held and no confirmation is needed', () => {
    given(created, startRequested, started, fill('f1', 'buy', 60000, 0.01), stopWith(true, true), stopped).when(start).then(startRequested);
  });
  it('given a running spot bot, when stopped with closePosition, then the stop request carries it (spot too)', () => {
    given(created, startRequested, started)
      .when({ type: 'StopBot', botId: 'b1', userId: 'u1', cancelAllOrders: true, closePosition: true })
      .then(stopWith(true, true));
  });
  it('names the coins of a symbol in the product\'s form (BTCUSDT)', () => {
    const plain: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', ...config, symbol: 'BTCUSDT' } };
    given(plain, startRequested, started, fill('f1', 'buy', 60000, 0.01), stopWith(false), stopped)
      .when(start)
      .thenThrows(PositionHeldError, /^The bot holds 0\.01 BTC \(bought for 600\.00 USDT\)\. .*up to 0\.05 BTC more for 2,990\.00 USDT\./);
  });
  it('is a conflict (409)', () => {
    expect(new PositionHeldError('x')).toBeInstanceOf(ConflictError);
  });
});

describe('a start that sells the held position first (issue 40: a signal\'s standing choice)', () => {
  const holding = [created, startRequested, started, fill('f1', 'buy', 60000, 0.01), stopWith(false), stopped];
  const sellFirst: BotCommand = { ...start, sellPositionFirst: true };
  const sellingStop: BotEvent = { type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: true, closePosition: true, thenStart: true } };

  it('given a stopped bot that holds 0.01 BTC, when started with sellPositionFirst, then a stop that cancels its orders and sells at market, marked to start after', () => {
    given(...holding).when(sellFirst).then(sellingStop);
  });
  it('given that stop under way, when the runner reports it stopped, then BotStopped and the start in the same decision; the new run holds nothing', () => {
    given(...holding, sellingStop)
      .when({ type: 'MarkStopped', botId: 'b1' })
      .then(stopped, { type: 'BotStartRequested', data: { botId: 'b1', afterClose: true } });
    const after = fold(...holding, sellingStop, stopped, { type: 'BotStartRequested', data: { botId: 'b1', afterClose: true } });
    expect(after.status).toBe('starting');
    expect(after.startAfterStop).toBeUndefined();
    expect(heldPosition(after)).toEqual({ amount: 0, cost: 0 });
  });
  it('given that stop under way, when the owner stops the bot, then it still sells but no start follows', () => {
    given(...holding, sellingStop).when({ type: 'StopBot', botId: 'b1', userId: 'u1', cancelAllOrders: false }).then(stopWith(true, true));
    given(...holding, sellingStop, stopWith(true, true)).when({ type: 'MarkStopped', botId: 'b1' }).then(stopped);
  });
  it('given that stop under way, when the sale fails (the bot fails), then no start follows', () => {
    given(...holding, sellingStop).when({ type: 'MarkFailed', botId: 'b1', reason: 'no answer' }).then({ type: 'BotFailed', data: { botId: 'b1', reason: 'no answer' } });
    expect(fold(...holding, sellingStop, { type: 'BotFailed', data: { botId: 'b1', reason: 'no answer' } }).startAfterStop).toBeUndefined();
  });
  it('given a bot that holds nothing, when started with sellPositionFirst, then it simply starts', () => {
    given(created).when(sellFirst).then(startRequested);
  });
});

describe('an infinity bot (issue 32)', () => {
  const infinity: BotConfig = { exchange: 'Binance', symbol: 'LTCUSDT', numOfOrders: 0, orderSize: 0, interval: 0, entryPrice: 100, takeProfit: 0, leverage: 1, style: 'infinity', stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };
  const createdInfinity: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', ...infinity } };

  it('given an infinity bot that holds coin, when started without confirming, then 409 saying what it holds and what its grid buys (no ladder)', () => {
    // the initial buy 1 LTC at 100, net 0.999 (fee in LTC): held 0.999 for 100
    given(createdInfinity, startRequested, started, fill('f1', 'buy', 100, 1, { netAmount: 0.999 }), stopWith(true), stopped)
      .when(start)
      .thenThrows(PositionHeldError, /holds 0\.999 LTC \(bought for 100\.00 USDT\)\. Starting it trades its infinity grid again: an initial buy of 100\.00 USDT if its orders were cancelled, then 20\.00 USDT bought on each step down to 95\. Confirm/);
  });

  it('given a stopped infinity bot, when edited, then refused on style: its settings are its own', () => {
    const edit: BotCommand = { type: 'EditBot', botId: 'b1', userId: 'u1', config: { exchange: 'Binance', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2 } };
    given(createdInfinity).when(edit).thenThrows(ValidationError);
    let thrown: unknown;
    try {
      botDecider.decide(edit, fold(createdInfinity));
    } catch (e) {
      thrown = e;
    }
    expect((thrown as ValidationError).errors).toEqual([{ field: 'style', message: 'An infinity bot cannot be edited yet: stop it, delete it and create a new one' }]);
  });
});
