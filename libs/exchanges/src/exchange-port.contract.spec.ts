/**
 * The exchange-port contract (exchange-port.contract.ts) on both adapters: the paper exchange, and the
 * ccxt adapter against the venue-faithful stand-in of each venue of the registry (one venue core, a REST
 * dialect per venue).
 */
import { CcxtExchange } from './ccxt.exchange';
import { contractCsv, CONTRACT_T0, exchangePortContract, type ContractWorld } from './exchange-port.contract';
import type { ExchangeName, MarketType } from './exchange.port';
import { PaperExchangeProvider, PaperVenue } from './paper.exchange';
import { CsvReplayFeed } from './paper-price-feed';
import { STUB_KEY } from './testing/ccxt.fixtures';
import { startVenueStandIn } from './testing/standin/venue-standin';
import { VENUE_REGISTRY } from './venues/registry';

jest.setTimeout(60_000);

/** Every venue the registry lists (issue 42: a new venue's folder and registry line bring it under the contract). */
const VENUES: Array<[ExchangeName, MarketType]> = VENUE_REGISTRY.map((v) => [v.exchange, v.market]);

function newVenue(): PaperVenue {
  const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(contractCsv()) });
  venue.advanceTo(CONTRACT_T0);
  return venue;
}

for (const [exchange, market] of VENUES) {
  exchangePortContract(`paper ${exchange} ${market}`, exchange, market, async (): Promise<ContractWorld> => {
    const venue = newVenue();
    const port = await new PaperExchangeProvider(venue).for({ userId: 'u1', exchange, market });
    return { port, advance: async (dt) => void venue.advanceTo(CONTRACT_T0 + dt), close: async () => venue.close() };
  });

  exchangePortContract(`ccxt ${exchange} ${market} against the venue stand-in`, exchange, market, async (): Promise<ContractWorld> => {
    const venue = newVenue();
    const standIn = await startVenueStandIn(venue, exchange, market, [{ ...STUB_KEY, userId: 'u1' }], { now: () => venue.nowMs() });
    const port = new CcxtExchange({ exchange, market, mode: 'live', credential: STUB_KEY, apiOrigin: standIn.origin, timeoutMs: 5000, retry: { attempts: 2, baseDelayMs: 5 }, clock: () => venue.nowMs() });
    return {
      port,
      advance: async (dt) => void venue.advanceTo(CONTRACT_T0 + dt),
      close: async () => {
        await standIn.close();
        venue.close();
      },
    };
  });
}
