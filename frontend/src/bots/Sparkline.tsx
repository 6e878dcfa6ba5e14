/** A small price line (SVG) for a bot card: the latest prices of its market, oldest first. */
export function Sparkline({ values, width = 120, height = 32, label }: { values: number[]; width?: number; height?: number; label: string }) {
  const v = values.filter((x) => Number.isFinite(x));
  if (v.length < 2) return <span className="sparkline sparkline--empty muted">no prices yet</span>;
  const min = Math.min(...v);
  const max = Math.max(...v);
  const span = max - min || 1;
  const pts = v.map((x, i) => `${((i / (v.length - 1)) * (width - 2) + 1).toFixed(1)},${(height - 1 - ((x - min) / span) * (height - 2)).toFixed(1)}`).join(' ');
  const up = v[v.length - 1] >= v[0];
  return (
    <svg className={`sparkline ${up ? 'up' : 'down'}`} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <polyline points={pts} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
