/** The infinity grid's own fields in the bot form (after the entry price): its step, value per step, floor and initial buy. */
import { Field, NUMERIC_INPUT } from '../../components/Field';
import type { OwnSectionProps } from '../form';

export function InfinityFields({ idp, values: inf, onField, onBlur, shown, invest, submitted }: OwnSectionProps) {
  return (
    <>
      <Field id={`${idp}-step`} label="Step" name="stepPercent" {...NUMERIC_INPUT} maxLength={6} unit="%" value={inf.stepPercent} onValue={(v) => onField('stepPercent', v)} onBlur={onBlur('stepPercent')} error={shown('stepPercent')} hint="One step, in % of the last trade’s price" />
      {invest.switcher}
      {invest.field(submitted)}
      <Field id={`${idp}-quote`} readOnly={invest.active} label="Value per step (USDT)" name="quoteValue" {...NUMERIC_INPUT} maxLength={12} value={inf.quoteValue} onValue={(v) => onField('quoteValue', v)} onBlur={onBlur('quoteValue')} error={shown('quoteValue')} hint="Sold on each step up, bought on each step down" />
      <Field id={`${idp}-lower`} label="Lower price" name="lowerPrice" {...NUMERIC_INPUT} maxLength={12} value={inf.lowerPrice} onValue={(v) => onField('lowerPrice', v)} onBlur={onBlur('lowerPrice')} error={shown('lowerPrice')} hint="No buy below this price; sells go on" />
      <Field id={`${idp}-initial`} label="Initial buy (USDT, optional)" name="initialQuote" {...NUMERIC_INPUT} maxLength={12} value={inf.initialQuote} onValue={(v) => onField('initialQuote', v)} onBlur={onBlur('initialQuote')} error={shown('initialQuote')} hint="Spent on coin at the entry price when the bot starts" />
    </>
  );
}
