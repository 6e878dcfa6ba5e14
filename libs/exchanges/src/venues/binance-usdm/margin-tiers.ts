/** Binance USDⓈ-M's own maintenance margin tiers (sources: ../margin-tiers.ts, docs/exchanges.md "Maintenance margin tiers"). */
import { maintenanceAmounts, type MarginTierTable } from '../margin-tier-tables';

const LEVERAGE_BRACKET = 'GET /fapi/v1/leverageBracket answer recorded in github.com/boolean404/heikin-ashi-trading-bot json/fapiPrivate_get_leverage_bracket.py (commit f4c6c76f2b465421681cded5f60c2f3cf29c256d)';

const BTCUSDT_TIERS: MarginTierTable = {
  source: `${LEVERAGE_BRACKET} (BTCUSDT brackets 1 to 10)`,
  tiers: maintenanceAmounts([
    { notionalCap: 50_000, maintenanceRate: 0.004, maxLeverage: 125 },
    { notionalCap: 250_000, maintenanceRate: 0.005, maxLeverage: 100 },
    { notionalCap: 3_000_000, maintenanceRate: 0.01, maxLeverage: 50 },
    { notionalCap: 20_000_000, maintenanceRate: 0.025, maxLeverage: 20 },
    { notionalCap: 40_000_000, maintenanceRate: 0.05, maxLeverage: 10 },
    { notionalCap: 100_000_000, maintenanceRate: 0.1, maxLeverage: 5 },
    { notionalCap: 120_000_000, maintenanceRate: 0.125, maxLeverage: 4 },
    { notionalCap: 200_000_000, maintenanceRate: 0.15, maxLeverage: 3 },
    { notionalCap: 300_000_000, maintenanceRate: 0.25, maxLeverage: 2 },
    { notionalCap: 500_000_000, maintenanceRate: 0.5, maxLeverage: 1 },
  ]),
};


/** The symbols with their own table; every other symbol has the conservative default. */
export const BINANCE_USDM_MARGIN_TIERS: Readonly<Record<string, MarginTierTable>> = { BTCUSDT: BTCUSDT_TIERS };
