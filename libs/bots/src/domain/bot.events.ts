import type { BotType, ExchangeName } from '@gridrocket/shared';

export interface BotConfig {
  exchange: ExchangeName;
  symbol: string;
  numOfOrders: number;
  orderSize: number;
  interval: number;
  entryPrice: number;
  takeProfit: number;
  leverage: number; // 1 for spot
}

export type BotEvent =
  | { type: 'BotCreated'; data: { botId: string; userId: string; botType: BotType } & BotConfig }
  | { type: 'BotEdited'; data: { botId: string } & Omit<BotConfig, 'symbol'> }
  | { type: 'BotStartRequested'; data: { botId: string } }
  | { type: 'BotStarted'; data: { botId: string; pid: number } }
  | { type: 'BotStartFailed'; data: { botId: string; reason: string } }
  | { type: 'BotStopRequested'; data: { botId: string; cancelAllOrders: boolean } }
  | { type: 'BotStopped'; data: { botId: string; pid: -1 } }
  | { type: 'BotFailed'; data: { botId: string; reason: string } }
  | { type: 'BotDeleted'; data: { botId: string } }
  // Written by the grid runner; the lifecycle only keeps the running profit.
  | { type: 'ProfitRealized'; data: { botId: string; amount: number; totalProfit: number; cycle: number } };

export type BotEventType = BotEvent['type'];

export const BOT_LIFECYCLE_EVENTS: BotEventType[] = [
  'BotCreated', 'BotEdited', 'BotStartRequested', 'BotStarted', 'BotStartFailed',
  'BotStopRequested', 'BotStopped', 'BotFailed', 'BotDeleted',
];

export const botStream = (botId: string) => `bot-${botId}`;
