import { randomUUID } from 'node:crypto';
import { NewEvent, SqliteEventStore } from '@gridrocket/event-store';

/**
 * Seeds a SQLite event log directly (synchronous=OFF: a benchmark's fixture) with `total` bot events
 * over total/10 bots: each created, then start/stop cycles. `allStopped`: one more BotStopped where a
 * bot's last cycle ended mid-way, so that no bot is running (a restart has nothing to resume).
 */
export async function seedBotLog(file: string, total: number, options: { allStopped?: boolean } = {}): Promise<void> {
  const allStopped = options.allStopped ?? true;
  const events = new SqliteEventStore(file, 200, 'OFF');
  const perBot = 10;
  const meta = { userId: 'u-bench', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 };
  const cycle = ['BotStartRequested', 'BotStarted', 'BotStopRequested', 'BotStopped'];
  for (let b = 0; b < total / perBot; b++) {
    const botId = randomUUID();
    const batch: NewEvent[] = [
      { id: randomUUID(), type: 'BotCreated', data: { botId, userId: `u${b % 1000}`, botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 }, metadata: meta },
    ];
    for (let i = 1; i < perBot; i++) {
      const type = cycle[(i - 1) % 4];
      batch.push({ id: randomUUID(), type, data: type === 'BotStarted' ? { botId, pid: 1 } : type === 'BotStopRequested' ? { botId, cancelAllOrders: true } : { botId }, metadata: meta });
    }
    if (allStopped && batch[batch.length - 1].type !== 'BotStopped') batch.push({ id: randomUUID(), type: 'BotStopped', data: { botId }, metadata: meta });
    await events.append(`bot-${botId}`, batch, 'no_stream');
  }
  await events.close();
}
