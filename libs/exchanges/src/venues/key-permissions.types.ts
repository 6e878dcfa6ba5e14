/** What an API key may do, as GridRocket decides on it (issue 30); no imports, so every venue's parser may use it. */
/** The facts GridRocket decides on; `ipRestricted` null = not applicable (the paper exchange). */
export interface KeyPermissions {
  /** The key may withdraw funds (Binance enableWithdrawals; KuCoin "Transfer"/"Withdrawal"). */
  withdraw: boolean;
  /** The key may read balances and orders (Binance enableReading; KuCoin "General"). */
  read: boolean;
  /** Spot trading (Binance enableSpotAndMarginTrading; KuCoin "Spot"). */
  spot: boolean;
  /** Futures trading (Binance enableFutures; KuCoin "Futures"). */
  futures: boolean;
  /** The key works only from listed IP addresses; null where the question does not apply (paper). */
  ipRestricted: boolean | null;
}
