/** The toy grid's runner side (GridStyle): its engine toy.engine.ts, its history the ladder's events. */
import type { BotConfig, RunBook, TradingEvent } from '@gridrocket/bots';
import { reconcile, roundMoney, type MarketRules } from '@gridrocket/trading/grid';
import { DEFAULT_FEE_RATE, marketClose, requireBalance, toEngineFill, toGridConfig, type GridStyle } from '@gridrocket/trading';
import { parseToyOrderId, processToyFill, toyDesiredOrders, toyInitialState, toyProblem, type ToyConfig, type ToyState } from './toy.engine';

export const toToyConfig = (c: BotConfig, botType: 'Spot' | 'Futures'): ToyConfig => ({ style: 'toy', botType, entryPrice: c.entryPrice, interval: c.interval, orderSize: c.orderSize, leverage: botType === 'Futures' ? c.leverage : 1 });

function replayToy(runs: readonly RunBook[], rules: MarketRules, engineId: string): ToyState {
  let s: ToyState | null = null;
  for (const r of runs) {
    if (r.config.style !== 'toy') continue;
    const config = toToyConfig(r.config, r.botType);
    if (!s || r.restart) s = toyInitialState(engineId, s ? s.cycle + 1 : 1);
    for (const f of r.fills) s = processToyFill(config, rules, s, f).state;
  }
  if (!s) throw new Error('A toy bot that never started has no grid');
  return s;
}

export const toyStyle: GridStyle<ToyConfig, ToyState> = {
  name: 'toy',
  runs: (c) => c.style === 'toy',
  engineConfig: toToyConfig,
  taskConfig: (c, botType) => toGridConfig({ ...c, style: undefined }, botType),
  ownsOrderId: (id) => parseToyOrderId(id) !== null,
  problem: toyProblem,
  replay: replayToy,
  processedFillIds: (s) => s.processedFillIds,
  active: (config, _ladder, rules, s) => toyDesiredOrders(config, rules, s),
  held: (s) => ({ sign: 1, amount: roundMoney(s.held.amount - s.sold) }),
  signedPosition: (s) => (s.held.amount > 0 ? { amount: roundMoney(s.held.amount - s.sold), averageEntry: s.held.cost / s.held.amount } : null),
  heldForClose: (s) => ({ kind: 'average', held: s.held, short: false }),
  idsUsed: (s) => s.cycle,
  stopLossUnderWay: () => false,
  watchesPrice: () => false,
  decideFills(v, fills) {
    let s = v.engine;
    const facts: TradingEvent[] = [];
    const { botId, run } = v;
    for (const f of fills) {
      const r = processToyFill(v.style, v.rules, s, toEngineFill(f, v.base));
      s = r.state;
      for (const e of r.effects) {
        const data = { botId, run, fillId: f.fillId, clientOrderId: f.clientOrderId, price: f.price, amount: f.amount, fee: f.fee, cycle: e.cycle, at: f.timestamp };
        if (e.type === 'ToyBought') facts.push({ type: 'OrderFilled', data: { ...data, side: 'buy', level: 0, late: false } });
        else {
          facts.push({ type: 'TakeProfitFilled', data: { ...data, side: 'sell', tpSeq: e.cycle, profit: e.profit } });
          if (e.profit !== 0) facts.push({ type: 'ProfitRealized', data: { botId, amount: e.profit, totalProfit: 0, cycle: e.cycle, run, fillId: f.fillId } });
        }
      }
    }
    return { engine: s, facts };
  },
  decideConverge(v) {
    const plan = reconcile(toyDesiredOrders(v.style, v.rules, v.engine), v.open, { closed: v.closed });
    if (plan.awaitingFills.length > 0) return [{ type: 'await-fills', orders: plan.awaitingFills.map((a) => a.desired) }];
    return [...plan.toCancel.map((o) => ({ type: 'cancel' as const, clientOrderId: o.clientOrderId })), ...plan.toPlace.map((order) => ({ type: 'place' as const, order }))];
  },
  rearm: () => null,
  rearmRefused: (d, partly) => `The ${d.side} order at ${d.price} was cancelled on the exchange outside GridRocket${partly}; a toy grid stops rather than place it again`,
  applyPrice: async () => undefined,
  afterConverge: async () => null,
  async checkFunds(task) {
    const config = task.styleConfig as ToyConfig;
    const buys = toyDesiredOrders(config, task.rules, task.engine as ToyState).filter((d) => d.side === 'buy' && !task.open.has(d.clientOrderId));
    const rate = task.makerFee ?? DEFAULT_FEE_RATE;
    const need = roundMoney(buys.reduce((t, d) => t + (d.price * d.amount) / config.leverage + d.price * d.amount * rate, 0));
    const quote = task.workflowQuote();
    await requireBalance(task, quote, need, (available) => `Insufficient balance: the toy grid needs ${need} ${quote} but only ${available} ${quote} is available`);
  },
  async closePosition(task) {
    const s = task.engine as ToyState;
    const amount = roundMoney(s.held.amount - s.sold);
    if (!(amount > 0)) return;
    await marketClose(task, { clientOrderId: `${task.prefix}${s.cycle}-close`, side: 'sell', amount, reduceOnly: task.id.market === 'futures', cycle: s.cycle }, async () => {
      for (const o of [...task.open.values()]) if (o.side === 'sell') await task.cancel(o.clientOrderId);
    });
  },
};
