/**
 * Set-ups the bot rules' specs share (test-only, not exported from index.ts): the body of a futures bot as
 * the API receives it, and a bot folded from its events by the decider, with its view.
 */
import { botDecider, type BotState } from './bot.decider';
import type { BotEvent } from './bot.events';
import { botSummary, toBotView } from './bot.view';

/** A futures bot's create body: 3 orders of 0.01 BTC, 100 apart below 60000, take profit 1 %, leverage 5. */
export const futuresBody = { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Futures', numOfOrders: 3, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 5 };

/** The bot's state after its events. */
export const foldBot = (events: BotEvent[]): BotState => events.reduce(botDecider.evolve, botDecider.initialState);

/** The bot's view (the API's lowercase fields) after its events. */
export const viewOfBot = (events: BotEvent[]) => toBotView(botSummary(foldBot(events) as never));
