import { compact } from './format';
import type { AdvancedView } from './AdvancedSettings';
import type { Schemas } from '../api/contract';

/**
 * The bot page's part of issue 14 (docs/risk.md): the stop-loss, trailing and liquidation levels the
 * API gives with the chart (`GET /api/bots/:id/chart` → `risk`) as price lines, and the bot's advanced
 * settings in words.
 */

/** lightweight-charts' LineStyle values (kept here so this module loads without the chart library). */
const LineStyle = { Solid: 0, Dotted: 1, Dashed: 2, LargeDashed: 3 } as const;
type LineStyleValue = (typeof LineStyle)[keyof typeof LineStyle];

/** The chart's risk levels (GET /api/bots/{id}/chart → `risk`). */
export type ChartRisk = Schemas['Chart']['risk'];

export interface RiskLine {
  price: number;
  color: string;
  lineWidth: 1 | 2;
  lineStyle: LineStyleValue;
  axisLabelVisible: boolean;
  title: string;
}

/** Price lines of the risk levels (none when the bot has no such setting). */
export function riskLines(risk?: ChartRisk | null): RiskLine[] {
  if (!risk) return [];
  const lines: RiskLine[] = [];
  if (risk.stopLoss !== null) lines.push({ price: risk.stopLoss, color: '#ff5c7a', lineWidth: 2, lineStyle: LineStyle.Solid, axisLabelVisible: true, title: 'stop-loss' });
  if (risk.trailing) {
    lines.push({ price: risk.trailing.activation, color: '#2ee6a6', lineWidth: 1, lineStyle: LineStyle.Dotted, axisLabelVisible: true, title: 'trailing from' });
    lines.push({ price: risk.trailing.stop, color: '#2ee6a6', lineWidth: 1, lineStyle: LineStyle.LargeDashed, axisLabelVisible: false, title: `trail −${risk.trailing.deviation}%` });
  }
  if (risk.liquidation !== null && risk.liquidation > 0) lines.push({ price: risk.liquidation, color: '#ff9f1c', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: 'liquidation' });
  return lines;
}

/** The advanced settings of a bot in words, with the levels the chart draws; nothing for a spec bot. */
export function AdvancedSummary({ bot, risk }: { bot: AdvancedView; risk?: ChartRisk | null }) {
  const items: string[] = [];
  if (bot.spacing === 'percent') items.push('Percent spacing (geometric)');
  if (bot.sizescale !== undefined && bot.sizescale !== 1) items.push(`Order sizes × ${bot.sizescale}`);
  if (bot.stoplosspercent !== undefined) items.push(`Stop-loss ${bot.stoplosspercent} % below the average entry${risk?.stopLoss != null ? ` (now ${compact(risk.stopLoss)})` : ''}`);
  else if (bot.stoplossprice !== undefined) items.push(`Stop-loss at ${compact(bot.stoplossprice)}`);
  if (bot.trailingdeviation !== undefined && bot.trailingdeviation > 0) items.push(`Trailing take-profit ${bot.trailingdeviation} %${risk?.trailing ? ` (from ${compact(risk.trailing.activation)})` : ''}`);
  if (bot.reanchor === 'follow') items.push(`Follows the price${bot.reanchorlimit !== undefined ? ` up to ${compact(bot.reanchorlimit)}` : ''}`);
  if (bot.traildownlimit !== undefined) items.push(`Trails down, not below ${compact(bot.traildownlimit)}: the position is kept`);
  if (risk && risk.liquidation !== null) {
    items.push(risk.liquidation > 0 ? `Liquidation of the full ladder ≈ ${compact(risk.liquidation)}` : 'Liquidation of the full ladder: none (its margin covers a fall to 0)');
  }
  if (items.length === 0) return null;
  return (
    <ul className="advanced-summary" aria-label="Advanced settings" data-testid="advanced-summary">
      {items.map((t) => (
        <li key={t}>{t}</li>
      ))}
    </ul>
  );
}
