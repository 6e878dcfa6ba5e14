/** KuCoin futures' own maintenance margin tiers (sources: ../margin-tiers.ts, docs/exchanges.md "Maintenance margin tiers"). */
import { ANNOUNCEMENT_2021_03_18, DEFAULT_TABLE, maintenanceAmounts, type MarginTierTable } from '../margin-tier-tables';

const KF_SNAP = 'GET /api/v1/contracts/active answer recorded in github.com/ccxt/ccxt ts/src/test/static/markets/kucoinfutures.json (commit 23dc7b5a4544e4b2fd19ab33b3576a1296f345e5)';

/** A Kucoin contract's first risk limit level (KF_SNAP), then the conservative table above its upper notional. */
function kucoinFirstLevel(contract: string, cap: number, rate: number, maxLeverage: number): MarginTierTable {
  const rest = DEFAULT_TABLE.tiers.filter((t) => t.notionalCap > cap).map((t) => ({ notionalCap: t.notionalCap, maintenanceRate: Math.max(t.maintenanceRate, rate) }));
  return {
    source: `${KF_SNAP} (${contract} risk limit level 1: maintainMargin ${rate}, maxLeverage ${maxLeverage}, maxRiskLimit ${cap}); above it the conservative 50x table of ${ANNOUNCEMENT_2021_03_18}`,
    tiers: maintenanceAmounts([{ notionalCap: cap, maintenanceRate: rate, maxLeverage }, ...rest]),
  };
}

const KUCOIN_XBTUSDTM = kucoinFirstLevel('XBTUSDTM', 25_000, 0.004, 125);
const KUCOIN_ETHUSDTM = kucoinFirstLevel('ETHUSDTM', 40_000, 0.005, 100);

/** The symbols with their own table (our symbol names: XBTUSDTM is BTCUSDT); every other symbol has the conservative default. */
export const KUCOIN_FUTURES_MARGIN_TIERS: Readonly<Record<string, MarginTierTable>> = { BTCUSDT: KUCOIN_XBTUSDTM, ETHUSDT: KUCOIN_ETHUSDTM };
