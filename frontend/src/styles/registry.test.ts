/** The bot form's choices come from the styles' folders (issue 42): the selects list what the registry offers. */
import { formOffers, styleOf } from './registry';

describe('the form offers of the dashboard styles', () => {
  it('offers the fallback first: a new spot bot a ladder or an infinity grid, a futures bot long, short or neutral', () => {
    expect(formOffers('spot').map((s) => [s.name, s.form?.offer.spot?.label])).toEqual([
      ['ladder', 'Ladder (buys below the entry, one take profit)'],
      ['infinity', 'Infinity (sells each step up, buys each step down)'],
    ]);
    expect(formOffers('futures').map((s) => [s.words.direction, s.form?.offer.futures?.label])).toEqual([
      ['long', 'Long (buys below the entry)'],
      ['short', 'Short (sells above the entry)'],
      ['neutral', 'Neutral (buys and sells)'],
    ]);
  });

  it('a style the dashboard does not know (a plug-in such as test/styles/toy) is the ladder, with the ladder\'s form', () => {
    const toy = styleOf({ style: 'toy', direction: 'long' });
    expect(toy.name).toBe('ladder');
    expect(toy.form?.fields).toBeUndefined();
    expect(toy.form?.ladder).toBeUndefined();
    expect(toy.ladderTools).toBe(true);
  });

  it('a style with its own fields brings their state, checks and body; a ladder variant its stops', () => {
    const infinity = formOffers('spot')[1].form!;
    expect(infinity.values?.of()).toEqual({ stepPercent: '', quoteValue: '', lowerPrice: '', initialQuote: '' });
    expect(infinity.fields?.body({ entryPrice: '100', stepPercent: '2', quoteValue: '10', lowerPrice: '90', initialQuote: '', exchange: 'Binance', symbol: 'BTCUSDT' })).toEqual({ style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 10, lowerPrice: 90 });
    const neutral = styleOf({ direction: 'neutral' }).form!;
    expect(neutral.ladder?.range).toBe(false);
    expect(neutral.ladder?.stops?.body({ below: '90', above: '' }, { below: '', above: '120' })).toEqual({ stopLossPrice: 90, stopLossPriceAbove: '' });
  });
});
