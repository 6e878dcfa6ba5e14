/**
 * The replayed price CSVs of the paper suites (PAPER_PRICES, test/support/trader-app.ts usePaperReplay): rows
 * `${ms},${exchange},${symbol},${price}` an hour (H) apart from T0, under the feed's header. An hour apart, the
 * app's feed driver (wall-clock elapsed time) never reaches the next row by itself: the test moves the feed.
 */
export const H = 3_600_000;
export const T0 = 1_700_000_000_000;

/** The CSV of `rows` (`ms,exchange,symbol,price` each), under the header. */
export const replayCsv = (rows: readonly string[]) => ['ms,exchange,symbol,price', ...rows].join('\n');
