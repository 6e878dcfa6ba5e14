import { useEffect, useMemo, useRef } from 'react';
import {
  ColorType,
  createChart,
  createSeriesMarkers,
  LineSeries,
  LineStyle,
  type AutoscaleInfo,
  type IChartApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useGetChartQuery } from '../api/api';
import type { Bot, ChartData } from '../api/types';
import { compact, price } from './format';
import { ladderFromBot } from './ladder';
import { crosshairTime, levelLines, tickLabel } from './chartLabels';
import { AdvancedSummary, riskLines, type ChartRisk } from './AdvancedLevels';
import type { AdvancedView } from './AdvancedSettings';
import { quoteOf } from '../shims/shared';
import { directionOf, orderWords } from '../money/words';
import { wordsOf } from '../styles/registry';

export { ladderFromBot };

/** Room right of the last point: half of the widest time label ("16:06:42") and a margin, px. */
const LAST_LABEL_ROOM_PX = 40;

function sortedUnique(points: ChartData['points']) {
  const byTime = new Map<number, number>();
  for (const p of points) if (Number.isFinite(p.time) && Number.isFinite(p.value)) byTime.set(Math.floor(p.time), p.value);
  return Array.from(byTime.entries())
    .sort((a, b) => a[0] - b[0])
    .map(([time, value]) => ({ time: time as UTCTimestamp, value }));
}

/** A chart of the bot's grid: price line, ladder and take-profit levels, and fills (lightweight-charts). */
export default function BotChart({ bot, large }: { bot: Bot; large?: boolean }) {
  // while the chart is open its price line grows: refetch every few seconds
  const { data, isLoading } = useGetChartQuery(bot.id, { pollingInterval: 5000 });
  const host = useRef<HTMLDivElement>(null);
  const points = useMemo(() => (data ? sortedUnique(data.points) : []), [data]);
  const levels = useMemo(
    () => (data && data.levels.length > 0 ? data.levels : ladderFromBot(bot)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data, bot.entryprice, bot.interval, bot.numoforders, bot.takeprofit],
  );
  const fills = useMemo(() => data?.fills ?? [], [data]);
  const risk = (data as { risk?: ChartRisk } | undefined)?.risk; // issue 14: stop-loss, trailing, liquidation

  useEffect(() => {
    const el = host.current;
    if (!el || points.length === 0) return;
    let chart: IChartApi | null = null;
    try {
      chart = createChart(el, {
        autoSize: true,
        layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#aab4ea', fontFamily: 'inherit' },
        grid: { vertLines: { color: 'rgba(124,247,255,0.06)' }, horzLines: { color: 'rgba(124,247,255,0.06)' } },
        // issue 29: labels of their own precision (no "16:06 16:06 16:06"), local time like the rest of the
        // page, and room in pixels right of the last point for its label, which the price axis cut at 375 px
        // (fitContent keeps `rightOffsetPixels` free; a width change refits below)
        timeScale: {
          borderColor: 'rgba(124,247,255,0.2)',
          timeVisible: true,
          secondsVisible: true,
          fixLeftEdge: true,
          rightOffsetPixels: LAST_LABEL_ROOM_PX,
          tickMarkFormatter: (time: Time, type: number) => (typeof time === 'number' ? tickLabel(time, type) : null),
        },
        // prices read as in the orders table: thousands grouped, 2 decimals from 1 up
        localization: { timeFormatter: (time: Time) => (typeof time === 'number' ? crosshairTime(time) : String(time)), priceFormatter: (p: number) => price(p) },
        // room for the price axis labels so that none is cut at a narrow width
        rightPriceScale: { borderColor: 'rgba(124,247,255,0.2)', minimumWidth: 64, scaleMargins: { top: 0.12, bottom: 0.12 } },
        crosshair: { horzLine: { color: '#7cf7ff' }, vertLine: { color: '#7cf7ff' } },
      });
      // the visible range covers the ladder and the take-profit too, not just the prices seen so far
      const levelPrices = [...levels.map((l) => l.price), ...riskLines(risk).map((l) => l.price)].filter((p) => Number.isFinite(p) && p > 0);
      const series = chart.addSeries(LineSeries, {
        color: '#7cf7ff',
        lineWidth: 2,
        priceLineVisible: true,
        autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
          const base = original();
          if (!base || !base.priceRange || levelPrices.length === 0) return base;
          return {
            ...base,
            priceRange: {
              minValue: Math.min(base.priceRange.minValue, ...levelPrices),
              maxValue: Math.max(base.priceRange.maxValue, ...levelPrices),
            },
          };
        },
      });
      series.setData(points);
      // Each line's price on the price axis in its colour, the take-profit titled TP (issue 29); on a long
      // ladder every k-th rung only, so the labels do not pile up (chartLabels.levelLines).
      for (const line of levelLines(levels, el.clientHeight || 220, directionOf(bot))) {
        const tp = line.kind === 'take-profit';
        series.createPriceLine({
          price: line.price,
          color: tp ? '#2ee6a6' : line.filled ? '#ffb347' : '#8b5cf6',
          lineWidth: 1,
          lineStyle: tp || line.filled ? LineStyle.Solid : LineStyle.Dashed,
          axisLabelVisible: line.axisLabel,
          title: line.title,
        });
      }
      for (const line of riskLines(risk)) series.createPriceLine(line);
      const markers: SeriesMarker<Time>[] = fills
        .filter((f) => Number.isFinite(f.time) && Number.isFinite(f.price))
        .sort((a, b) => a.time - b.time)
        .map((f) => ({
          time: Math.floor(f.time) as UTCTimestamp,
          position: f.side === 'buy' ? 'belowBar' : 'aboveBar',
          color: f.side === 'buy' ? '#ffb347' : '#2ee6a6',
          shape: f.side === 'buy' ? 'arrowUp' : 'arrowDown',
        }));
      if (markers.length) createSeriesMarkers(series, markers);
      const timeScale = chart.timeScale();
      timeScale.fitContent();
      // a new width (a phone turned, the window resized) keeps the bar spacing: fit again so every price and
      // the room for the last label stay in view
      timeScale.subscribeSizeChange(() => timeScale.fitContent());
    } catch (e) {
      console.warn('chart failed', e);
    }
    return () => chart?.remove();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, levels, fills, risk, bot.direction]);

  const buys = levels.filter((l) => l.kind === 'buy');
  const direction = directionOf(bot);
  const words = orderWords(direction);
  // a neutral grid has answers, not one take-profit
  const tpLevel = wordsOf(direction).takeProfit ? levels.find((l) => l.kind === 'take-profit') : undefined;
  const cur = quoteOf(bot.symbol) ?? 'USDT';
  const opens = wordsOf(direction).opens;
  if (isLoading) return <div className="chart-empty">Loading chart…</div>;
  if (points.length === 0) {
    return (
      <div className="chart-empty" role="note">
        <p>No price history yet: the chart fills in once the bot is running.</p>
        {buys.length > 0 ? (
          <p className="muted">
            Ladder: {buys.length} {opens} order{buys.length === 1 ? '' : 's'} from {compact(buys[0].price)} {direction === 'short' ? 'up' : 'down'} to {compact(buys[buys.length - 1].price)}
            {tpLevel ? <>; take profit at {compact(tpLevel.price)}</> : null}.
          </p>
        ) : null}
        <AdvancedSummary bot={bot as AdvancedView} risk={risk} />
      </div>
    );
  }
  return (
    <figure className={`chart${large ? ' chart--large' : ''}`}>
      <div ref={host} className="chart__canvas" role="img" aria-label={`Price chart of ${bot.symbol} with the grid's ${words.open.replace(/^open /, '')} and ${words.closing.replace(/ \(.*\)$/, '')}`} />
      <figcaption className="chart__legend" data-testid="chart-legend">
        <span><i className="swatch swatch--price" /> price ({cur})</span>
        <span><i className="swatch swatch--buy" /> {words.open}</span>
        <span><i className="swatch swatch--fill" /> {words.filled}</span>
        <span><i className="swatch swatch--tp" /> {words.closing}{tpLevel ? ` ${compact(tpLevel.price)}` : ''}</span>
        <span>▲▼ fills</span>
      </figcaption>
      <AdvancedSummary bot={bot as AdvancedView} risk={risk} />
    </figure>
  );
}
