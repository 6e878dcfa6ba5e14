/** The pure grid engine: ladder, cost, take-profit, client order ids, fills, desired orders, reconciliation. */
export * from './grid.types';
export { gridCost, ladderCost } from './cost';
export type { CostInput, CostRounding } from './cost';
export { buildLadder, validateGrid, MAX_GRID_ORDERS } from './ladder';
export { restartBook } from './book';
export type { RestartOptions } from './book';
export {
  initialState,
  processFill,
  rearmOrder,
  MAX_REARMS,
  applyFill,
  applyFills,
  takeProfitPrice,
  takeProfitOrder,
  stalledReason,
  desiredOrders,
  reconcile,
} from './grid.engine';
export type { ReconcileOptions } from './grid.engine';
export {
  CLIENT_ORDER_ID_MAX_LENGTH,
  botHash,
  clientOrderIdPrefix,
  buyOrderId,
  takeProfitOrderId,
  parseClientOrderId,
  isOwnClientOrderId,
} from './client-order-id';
export type { ParsedClientOrderId } from './client-order-id';
export {
  decimalsOf,
  floorToStep,
  ceilToStep,
  roundToStep,
  roundTo,
  roundMoney,
  MONEY_DECIMALS,
  isMultipleOfStep,
  fromSteps,
  cleanNumber,
  addClean,
  subClean,
} from './decimal';
export { rungPrice, rungSize, oneInterval, isSpecLadder, spacingProblem, MAX_SIZE_SCALE } from './spacing';
export type { RungInput } from './spacing';
export {
  riskProblem,
  stopLossLevel,
  stopLossPreview,
  beginStopLoss,
  stopLossSell,
  stopLossDoneReason,
  activeOrders,
  trailingActivation,
  trailingStop,
  decidePrice,
  anchorOf,
  reanchorBook,
  dustOf,
  meetsOrderMinimums,
  isFlat,
} from './risk';
export type { PriceDecision } from './risk';
export { trailDownBook, trailDownTarget, trailDownTrigger } from './trail-down';
export { longLiquidationPrice, ladderLiquidation, liquidationProblem } from './liquidation';
export type { MaintenanceTier, LadderLiquidation } from './liquidation';
export { stopLossOrderId } from './client-order-id';
export { riskPreview, PREVIEW_RULES } from './risk-preview';
export type { RiskPreview } from './risk-preview';
export { rangeToLadder, ladderToRange, rangeProblems, RANGE_KINDS, PERCENT_DECIMALS } from './range';
export type { RangeSetup, RangeKind, RangeLadder, RangeProblem, RangeField, RangeResult } from './range';
export { DIRECTIONS, directionOf, directionProblem, entrySide, exitSide, signOf } from './direction';
export type { Direction } from './direction';
export { shortLiquidationPrice, liquidationPrice } from './liquidation';
export { stateDirection } from './grid.engine';
// (a style's engine is in its folder, styles/<style>/, with its pure entry @gridrocket/trading/styles/<style>)
export { liquidationDistance, LIQUIDATION_WARNING_PERCENT } from './liquidation-stops';
export type { StopBeyondLiquidation } from './liquidation-stops';
// issue 42: what a grid's style changes of its halves and its stops, from the styles' pure registry
export { gridHalves, stopsBeyondLiquidation, partsOf, styleDirection } from '../styles/pure-registry';
export type { StyleDirection } from '../styles/pure-registry';
export type { GridHalf, StyleClaim, StyleParts } from '../styles/style-parts';
