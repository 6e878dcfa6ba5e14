/** The infinity grid's sizing by investment (issue 40): the value per step the server's sizeInfinity gives. */
import { sizeInfinity, type InfinityToSize } from '@gridrocket/bots/styles/infinity/infinity.sizing';
import { usdt } from '../../bots/format';
import type { OwnSizing } from '../../bots/InvestmentSizing';

/** Its sizing of the form's fields `c` (null until each is valid). */
export function infinitySizing(c: InfinityToSize | null): OwnSizing {
  return {
    sizeLabel: 'Each step’s value',
    hint: 'The initial buy and one value per step down to the lower price',
    size: c
      ? (investment, market) => {
          const s = sizeInfinity(c, investment, market);
          const summary = `${usdt(s.quoteValue)} USDT per step × ${s.steps} steps down to the lower price${(c.initialQuote ?? 0) > 0 ? ', with the initial buy' : ''}: ${usdt(s.cost)} USDT`;
          return { size: s.quoteValue, summary, minimum: s.minimum, problem: s.problem };
        }
      : null,
  };
}
