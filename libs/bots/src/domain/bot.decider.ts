import { ConflictError, Decider, NotFoundError, ValidationError } from '@gridrocket/shared';
import type { BotType } from '@gridrocket/shared';
import { BotConfig, BotEvent, BotEventType } from './bot.events';

export type BotStatus = 'stopped' | 'starting' | 'running' | 'stopping';

export interface BotState {
  exists: boolean;
  deleted: boolean;
  botId: string | null;
  userId: string | null;
  botType: BotType | null;
  config: BotConfig | null;
  status: BotStatus;
  pid: number;
  profit: number;
  lastError: string | null;
  cancelAllOrders: boolean;
}

export type BotCommand =
  | { type: 'CreateBot'; botId: string; userId: string; botType: BotType; config: BotConfig }
  | { type: 'EditBot'; botId: string; userId: string; config: Omit<BotConfig, 'symbol' | 'leverage'> & { leverage?: number } }
  | { type: 'StartBot'; botId: string; userId: string }
  | { type: 'StopBot'; botId: string; userId: string; cancelAllOrders: boolean }
  | { type: 'DeleteBot'; botId: string; userId: string }
  // The runner's commands (no user check: the runner acts for the system).
  | { type: 'MarkStarted'; botId: string; pid: number }
  | { type: 'MarkStartFailed'; botId: string; reason: string }
  | { type: 'MarkStopped'; botId: string }
  | { type: 'MarkFailed'; botId: string; reason: string };

export const initialBotState: BotState = {
  exists: false,
  deleted: false,
  botId: null,
  userId: null,
  botType: null,
  config: null,
  status: 'stopped',
  pid: -1,
  profit: 0,
  lastError: null,
  cancelAllOrders: false,
};

export const BOT_NOT_FOUND = 'Bot not found';
export const BOT_BUSY_EDIT = 'The bot is running: stop it before editing it.';
export const BOT_BUSY_DELETE = 'The bot is running: stop it before deleting it.';
export const BOT_STOPPING = 'The bot is still stopping: start it again once it has stopped.';

function requireOwned(state: BotState, userId: string): void {
  // Another user's bot is indistinguishable from a missing one (no enumeration).
  if (!state.exists || state.deleted || state.userId !== userId) throw new NotFoundError(BOT_NOT_FOUND);
}

function requireLive(state: BotState): boolean {
  return state.exists && !state.deleted;
}

export function decideBot(command: BotCommand, state: BotState): BotEvent[] {
  const botId = command.botId;
  switch (command.type) {
    case 'CreateBot':
      if (state.exists) throw new ConflictError('A bot with this id already exists');
      return [{ type: 'BotCreated', data: { botId, userId: command.userId, botType: command.botType, ...command.config } }];
    case 'EditBot':
      requireOwned(state, command.userId);
      if (state.status !== 'stopped') throw new ConflictError(BOT_BUSY_EDIT);
      if (state.botType === 'Spot' && command.config.leverage !== undefined && command.config.leverage !== 1) {
        throw new ValidationError([{ field: 'leverage', message: 'leverage applies to futures bots only' }]);
      }
      return [{ type: 'BotEdited', data: { botId, ...command.config, leverage: state.botType === 'Futures' ? (command.config.leverage ?? state.config!.leverage) : 1 } }];
    case 'StartBot':
      requireOwned(state, command.userId);
      if (state.status === 'starting' || state.status === 'running') return [];
      if (state.status === 'stopping') throw new ConflictError(BOT_STOPPING);
      return [{ type: 'BotStartRequested', data: { botId } }];
    case 'StopBot':
      requireOwned(state, command.userId);
      if (state.status === 'stopping' || state.status === 'stopped') return [];
      return [{ type: 'BotStopRequested', data: { botId, cancelAllOrders: command.cancelAllOrders } }];
    case 'DeleteBot':
      requireOwned(state, command.userId);
      if (state.status !== 'stopped') throw new ConflictError(BOT_BUSY_DELETE);
      return [{ type: 'BotDeleted', data: { botId } }];
    case 'MarkStarted':
      if (!requireLive(state) || state.status !== 'starting') return [];
      return [{ type: 'BotStarted', data: { botId, pid: command.pid } }];
    case 'MarkStartFailed':
      if (!requireLive(state) || state.status !== 'starting') return [];
      return [{ type: 'BotStartFailed', data: { botId, reason: command.reason } }];
    case 'MarkStopped':
      if (!requireLive(state) || state.status !== 'stopping') return [];
      return [{ type: 'BotStopped', data: { botId, pid: -1 } }];
    case 'MarkFailed':
      if (!requireLive(state) || state.status === 'stopped') return [];
      return [{ type: 'BotFailed', data: { botId, reason: command.reason } }];
  }
}

export function evolveBot(state: BotState, event: BotEvent): BotState {
  switch (event.type) {
    case 'BotCreated': {
      const { botId, userId, botType, ...config } = event.data;
      return { ...initialBotState, exists: true, botId, userId, botType, config };
    }
    case 'BotEdited': {
      const { botId: _id, ...config } = event.data;
      return { ...state, config: { ...state.config!, ...config } };
    }
    case 'BotStartRequested':
      return { ...state, status: 'starting', lastError: null };
    case 'BotStarted':
      return { ...state, status: 'running', pid: event.data.pid };
    case 'BotStartFailed':
      return { ...state, status: 'stopped', pid: -1, lastError: event.data.reason };
    case 'BotStopRequested':
      return { ...state, status: 'stopping', cancelAllOrders: event.data.cancelAllOrders };
    case 'BotStopped':
      return { ...state, status: 'stopped', pid: -1 };
    case 'BotFailed':
      return { ...state, status: 'stopped', pid: -1, lastError: event.data.reason };
    case 'BotDeleted':
      return { ...state, deleted: true, status: 'stopped', pid: -1 };
    case 'ProfitRealized':
      return { ...state, profit: event.data.totalProfit };
    default:
      return state; // order events and future types do not change the lifecycle
  }
}

/** The lifecycle events that may follow a state: what an auditor's check of a stream uses. */
export function allowedNext(state: BotState): BotEventType[] {
  if (!state.exists) return ['BotCreated'];
  if (state.deleted) return [];
  switch (state.status) {
    case 'stopped':
      return ['BotEdited', 'BotStartRequested', 'BotDeleted'];
    case 'starting':
      return ['BotStarted', 'BotStartFailed', 'BotStopRequested', 'BotFailed'];
    case 'running':
      return ['BotStopRequested', 'BotFailed', 'ProfitRealized'];
    case 'stopping':
      return ['BotStopped', 'BotFailed', 'ProfitRealized'];
  }
}

export const botDecider: Decider<BotCommand, BotEvent, BotState> = {
  initialState: initialBotState,
  decide: decideBot,
  evolve: evolveBot,
};
