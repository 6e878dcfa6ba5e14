/**
 * How the dashboard names a bot (issue 40): by the name its owner gave it, else by its pair, so three
 * BTCUSDT bots are told apart on the card, the bot page, the lists and the history (the alerts name it the
 * same way: libs/alerts alert-mapping.ts botWords).
 */
import { pairLabel } from './pairs';

interface Named {
  name?: string | null;
  symbol: string;
  exchange: string;
  bottype: 'Spot' | 'Futures';
}

/** The bot's words for screen readers and buttons: `"Night grid", Binance spot bot BTC/USDT`. */
export function botLabel(bot: Named): string {
  const kind = `${bot.exchange} ${bot.bottype === 'Futures' ? 'futures' : 'spot'} bot ${pairLabel(bot.symbol)}`;
  return bot.name ? `“${bot.name}”, ${kind}` : kind;
}

/** The name a history shows: the last one its BotCreated and BotEdited events gave (null: none, or removed). */
export function nameInHistory(events: ReadonlyArray<{ type: string; data?: unknown }>): string | null {
  let name: string | null = null;
  for (const e of events) {
    if (e.type !== 'BotCreated' && e.type !== 'BotEdited') continue;
    const d = (e.data ?? {}) as { name?: unknown };
    if (typeof d.name === 'string' && d.name.trim() !== '') name = d.name;
    else if (d.name === null || (e.type === 'BotCreated' && !('name' in d))) name = null;
  }
  return name;
}
