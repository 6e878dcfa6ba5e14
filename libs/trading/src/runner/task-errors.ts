/** An error the bot cannot recover from: it stops with BotFailed / BotStartFailed and this reason (bot-task.ts, the styles' runner steps). */
export class UnrecoverableError extends Error {}
