/** The money view's figures for people: a percentage with exactly 2 decimals and its sign ('—' when there is none). */
export function percent2(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const s = Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return n >= 0.005 ? `+${s}%` : n <= -0.005 ? `−${s}%` : '0.00%';
}

/** A price or an amount of a fill: thousands grouped, no trailing zeros, at most 8 significant digits. */
export function quantity(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { maximumSignificantDigits: Math.abs(n) >= 1e8 ? 21 : 8 });
}

/** The class that colours a figure by its sign. */
export const tone = (n: number | null | undefined) => (n === null || n === undefined ? '' : n > 0.004 ? 'up' : n < -0.004 ? 'down' : '');
