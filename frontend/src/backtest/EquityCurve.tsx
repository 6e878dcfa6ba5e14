import './equityCurve.css';

/** The equity curve of a backtest as an SVG line, with the capital as a dashed baseline. */
interface Props {
  time: number[];
  equity: number[];
  capital: number;
  width?: number;
  height?: number;
}

export function EquityCurve({ time, equity, capital, width = 320, height = 120 }: Props) {
  if (equity.length < 2) return null;
  const lo = Math.min(capital, ...equity);
  const hi = Math.max(capital, ...equity);
  const t0 = time[0];
  const t1 = time[time.length - 1] || t0 + 1;
  const x = (t: number) => ((t - t0) / (t1 - t0 || 1)) * width;
  const y = (v: number) => height - ((v - lo) / (hi - lo || 1)) * (height - 8) - 4;
  const points = equity.map((v, i) => `${x(time[i]).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const up = equity[equity.length - 1] >= capital;
  return (
    <svg
      className="equity-curve"
      data-testid="equity-curve"
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      role="img"
      aria-label={`Equity from ${capital.toFixed(2)} to ${equity[equity.length - 1].toFixed(2)} USDT`}
    >
      <line x1={0} x2={width} y1={y(capital)} y2={y(capital)} className="equity-curve__base" />
      <polyline points={points} className={up ? 'equity-curve__line equity-curve__line--up' : 'equity-curve__line equity-curve__line--down'} />
    </svg>
  );
}
