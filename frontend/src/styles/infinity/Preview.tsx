import { useMemo } from 'react';
import { infinityPreview, type InfinityFormValues } from './form';
import { price } from '../../bots/format';
import { NoteRow, OrderRow, PreviewHint, PreviewSection, PreviewTable } from '../../bots/PreviewTable';
import type { OwnPreviewProps } from '../form';

/**
 * An infinity grid's first orders (issue 32, docs/infinity.md): the initial buy at the entry, then the
 * sell one step up and the buy one step down around it, and the floor below which it buys no more.
 */
export function InfinityPreview({ values, errors, rules }: OwnPreviewProps) {
  const preview = useMemo(() => {
    if ((['entryPrice', 'stepPercent', 'quoteValue', 'lowerPrice', 'initialQuote'] as const).some((k) => errors[k])) return null;
    return infinityPreview(values as InfinityFormValues, rules);
  }, [errors, values, rules]);
  if (!preview) return <PreviewHint title="Infinity grid preview" hint="Fill in the entry price, step, value per step and lower price to see its first orders." />;
  const row = (label: string, o: { price: number; amount: number }) => <OrderRow key={label} name={label} order={{ price: o.price, size: o.amount }} />;
  return (
    <PreviewSection title="Infinity grid preview" testId="infinity-preview">
      <PreviewTable label="First orders of the infinity grid" first="Order" named>
        {preview.initial ? row('Initial buy', preview.initial) : <NoteRow>No initial buy: the first sell waits for a buy</NoteRow>}
        {preview.sell ? row('Sell one step up', preview.sell) : null}
        {preview.buy ? row('Buy one step down', preview.buy) : null}
      </PreviewTable>
      <p className="muted" data-testid="infinity-floor">No buy below {price(preview.lowerPrice)} USDT; sells go on above.</p>
      <p className="muted">Each step up sells, each step down buys, the same value; the steps start once the initial buy has filled.</p>
    </PreviewSection>
  );
}
