/**
 * The data of a bot's grid chart, from its recorded events (pure): the price
 * line, the ladder and take-profit levels of the current run, and the fills.
 * Times are unix seconds, as lightweight-charts wants them.
 */
export interface ChartPoint {
  time: number;
  value: number;
}

export interface ChartLevel {
  price: number;
  /** 'buy': an opening order (a long's buy, a short's sell, a neutral grid's opening order); 'take-profit': a closing one (a neutral grid's answer). */
  kind: 'buy' | 'take-profit';
  status: 'open' | 'filled';
  /** The order's side (issue 40, point 4: a short's opening orders are sells). */
  side: 'buy' | 'sell';
}

export interface ChartFill {
  time: number;
  price: number;
  side: 'buy' | 'sell';
  amount: number;
}

export interface GridChart {
  points: ChartPoint[];
  levels: ChartLevel[];
  fills: ChartFill[];
}

interface ChartEvent {
  type: string;
  data: any;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export function buildGridChart(events: ChartEvent[], prices: ChartPoint[]): GridChart {
  // Only the latest run counts for the levels; fills of every run are history worth showing.
  let run = -1;
  for (const e of events) if (typeof e.data?.run === 'number' && e.data.run > run) run = e.data.run;
  const orders = new Map<string, ChartLevel>();
  const fills: ChartFill[] = [];
  for (const e of events) {
    const d = e.data ?? {};
    switch (e.type) {
      case 'OrderPlaced':
      case 'TakeProfitPlaced':
        if (d.run === run) orders.set(d.clientOrderId, { price: d.price, kind: e.type === 'OrderPlaced' ? 'buy' : 'take-profit', status: 'open', side: d.side === 'sell' ? 'sell' : 'buy' });
        break;
      case 'OrderCancelled':
        if (d.run === run) {
          const o = orders.get(d.clientOrderId);
          if (o && o.status === 'open') orders.delete(d.clientOrderId);
        }
        break;
      case 'OrderFilled':
      case 'TakeProfitFilled': {
        fills.push({ time: seconds(d.at), price: d.price, side: d.side, amount: d.amount });
        const o = d.run === run ? orders.get(d.clientOrderId) : undefined;
        if (o) o.status = 'filled';
        break;
      }
      case 'CycleCompleted':
        // a new cycle places the ladder again: filled buys of the old cycle are history now
        if (d.run === run) for (const [id, o] of orders) if (o.status === 'filled') orders.delete(id);
        break;
    }
  }
  const byTime = new Map<number, number>();
  for (const p of prices) byTime.set(p.time, p.value);
  for (const f of fills) if (!byTime.has(f.time)) byTime.set(f.time, f.price);
  const points = [...byTime].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time, value }));
  const levels = [...orders.values()].sort((a, b) => b.price - a.price);
  return { points, levels, fills };
}
