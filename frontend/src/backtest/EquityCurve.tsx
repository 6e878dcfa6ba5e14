import { useLayoutEffect, useRef, useState } from 'react';
import { labelWidth, placeTimeLabels, timeTicks, valueTicks } from '../money/axes';
import './equityCurve.css';

/**
 * An equity curve (a backtest's, a bot's, the account's) as an SVG line with its axes (issue 29): a value
 * axis whose ticks are labelled in the quote currency, a time axis whose labels are distinct, a title and
 * a legend; the capital as a dashed baseline. Drawn at the pixel width of its box, so the 11 px labels stay
 * readable at 375 px instead of shrinking with a scaled picture, and laid out so no label leaves the box.
 */
interface Props {
  time: number[];
  equity: number[];
  capital: number;
  /** The quote currency of the values (the axis unit). */
  currency?: string;
  title?: string;
  /** What the dashed line is, for the legend. */
  capitalLabel?: string;
  height?: number;
}

/** Width before the box is measured (and in tests, where nothing has a layout). */
const DEFAULT_WIDTH = 320;
const TOP = 20; // room for the axis unit above the top tick
const BOTTOM = 22; // the time labels
const RIGHT = 6;
const FONT_PX = 11;

const money = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function EquityCurve({ time, equity, capital, currency = 'USDT', title = 'Equity', capitalLabel = 'capital committed', height = 180 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  if (equity.length < 2) return null;
  const y = valueTicks(Math.min(capital, ...equity), Math.max(capital, ...equity), Math.max(3, Math.floor((height - TOP - BOTTOM) / 28) + 1));
  const left = Math.ceil(Math.max(labelWidth(y.ticks.map((t) => t.label)), labelWidth([currency])) + 8);
  const plotW = Math.max(40, width - left - RIGHT);
  const plotH = height - TOP - BOTTOM;
  const t0 = time[0];
  const t1 = time[time.length - 1];
  const xTicks = timeTicks(t0, t1, plotW);
  const x = (t: number) => left + ((t - t0) / (t1 - t0 || 1)) * plotW;
  const yOf = (v: number) => TOP + plotH - ((v - y.lo) / (y.hi - y.lo || 1)) * plotH;
  const points = equity.map((v, i) => `${x(time[i]).toFixed(1)},${yOf(v).toFixed(1)}`).join(' ');
  const last = equity[equity.length - 1];
  const up = last >= capital;
  // each time label centred on its tick, kept inside the picture, none touching another (money/axes.ts)
  const xLabels = placeTimeLabels(xTicks.map((t) => ({ ...t, at: x(t.value) })), Math.max(0, left - 20), width - RIGHT);
  return (
    <figure className="equity-curve" data-testid="equity-curve">
      <figcaption className="equity-curve__head">
        <span className="equity-curve__title" data-testid="equity-title">
          {title} ({currency})
        </span>
        <span className="equity-curve__legend">
          <span><i className={`equity-curve__key ${up ? 'equity-curve__key--up' : 'equity-curve__key--down'}`} aria-hidden="true" /> equity, now {money(last)} {currency}</span>
          <span><i className="equity-curve__key equity-curve__key--base" aria-hidden="true" /> {capitalLabel} {money(capital)} {currency}</span>
        </span>
      </figcaption>
      <div ref={box} className="equity-curve__box">
        <svg
          className="equity-curve__svg"
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={`${title} from ${money(equity[0])} to ${money(last)} ${currency}, ${xLabels[0]?.label ?? ''} to ${xLabels[xLabels.length - 1]?.label ?? ''}`}
        >
          <text x={2} y={FONT_PX} className="equity-curve__unit" data-testid="equity-y-unit">
            {currency}
          </text>
          {y.ticks.map((t) => (
            <g key={`y${t.value}`}>
              <line x1={left} x2={left + plotW} y1={yOf(t.value)} y2={yOf(t.value)} className="equity-curve__grid" />
              <text x={left - 6} y={yOf(t.value) + 4} textAnchor="end" className="equity-curve__tick" data-testid="equity-y-tick">
                {t.label}
              </text>
            </g>
          ))}
          <line x1={left} x2={left} y1={TOP} y2={TOP + plotH} className="equity-curve__axis" />
          <line x1={left} x2={left + plotW} y1={TOP + plotH} y2={TOP + plotH} className="equity-curve__axis" />
          {xTicks.map((t) => (
            <line key={`xt${t.value}`} x1={x(t.value)} x2={x(t.value)} y1={TOP + plotH} y2={TOP + plotH + 4} className="equity-curve__axis" />
          ))}
          {xLabels.map((t) => (
            <text key={`x${t.value}`} x={t.x} y={height - 5} textAnchor="middle" className="equity-curve__tick" data-testid="equity-x-tick">
              {t.label}
            </text>
          ))}
          <line x1={left} x2={left + plotW} y1={yOf(capital)} y2={yOf(capital)} className="equity-curve__base" />
          <polyline points={points} className={up ? 'equity-curve__line equity-curve__line--up' : 'equity-curve__line equity-curve__line--down'} />
        </svg>
      </div>
    </figure>
  );
}
