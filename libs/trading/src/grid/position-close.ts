/**
 * What a market close of the position realises (issue 40: a stop that sells the position, the venue's
 * liquidation), pure and with the engines' own rules, so that the close's P&L is the product's like every
 * other closing fill's:
 *  - a ladder (long or short) and an infinity grid hold on the AVERAGE cost (grid.engine.ts applyToDraft, a
 *    take-profit's fill; infinity.engine.ts a step's sell): a fill that closes `sold` of the position
 *    realises `sold × price − cost share − buy-fee share − its own fee` (a short: `cost share − sold × price
 *    − …`, its cost the quote the short sells received);
 *  - a neutral grid holds lots (neutral.ts): `neutralClose` books the close against them, latest first, as
 *    its stop-loss's close does.
 * A fill beyond what is held realises only its fee (less than nothing is never sold).
 */
import { roundMoney, subClean } from './decimal';

/** A position held on the average cost: amount, its cost at the entry prices (fees excluded), the buy fees not yet charged. */
export interface AverageHeld {
  amount: number;
  cost: number;
  buyFees: number;
}

export interface CloseFill {
  price: number;
  amount: number;
  /** Quote. */
  fee: number;
}

/** `fill` closing part or all of `held` (a short when `short`): the position left and what the fill realised (quote, fees included). */
export function closeOnAverage(held: AverageHeld, short: boolean, fill: CloseFill): { held: AverageHeld; profit: number } {
  const sold = Math.min(fill.amount, Math.max(0, held.amount));
  let profit = -fill.fee;
  if (sold <= 0) return { held, profit: roundMoney(profit) };
  const whole = subClean(held.amount, sold) <= 0;
  const share = sold / held.amount;
  const costShare = whole ? held.cost : held.cost * share;
  const feeShare = whole ? held.buyFees : held.buyFees * share;
  profit += (short ? costShare - sold * fill.price : sold * fill.price - costShare) - feeShare;
  const left = whole ? { amount: 0, cost: 0, buyFees: 0 } : { amount: subClean(held.amount, sold), cost: subClean(held.cost, costShare), buyFees: subClean(held.buyFees, feeShare) };
  return { held: left, profit: roundMoney(profit) };
}
