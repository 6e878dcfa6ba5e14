/** The stand-in specs' usual venue: a paper venue on the contract's candles at CONTRACT_T0, behind one venue's stand-in. */
import { contractCsv, CONTRACT_T0 } from '../../exchange-port.contract';
import type { ExchangeName, MarketType } from '../../exchange.port';
import { PaperVenue } from '../../paper.exchange';
import { CsvReplayFeed } from '../../paper-price-feed';
import { STUB_KEY } from '../ccxt.fixtures';
import { startVenueStandIn, type VenueStandIn } from './venue-standin';

/** The venue (in memory, `startingUsdt` when given) and its stand-in, keyed for u1 with STUB_KEY, on the venue's clock. */
export async function contractStandIn(exchange: ExchangeName, market: MarketType, venueOptions: { startingUsdt?: string } = {}): Promise<{ venue: PaperVenue; standIn: VenueStandIn }> {
  const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(contractCsv()), ...venueOptions });
  venue.advanceTo(CONTRACT_T0);
  try {
    const standIn = await startVenueStandIn(venue, exchange, market, [{ ...STUB_KEY, userId: 'u1' }], { now: () => venue.nowMs() });
    return { venue, standIn };
  } catch (err) {
    venue.close();
    throw err;
  }
}

/** Closes what contractStandIn opened (either may not have been opened). */
export async function closeContractStandIn(opened: { venue?: PaperVenue; standIn?: VenueStandIn }): Promise<void> {
  await opened.standIn?.close();
  opened.venue?.close();
}
