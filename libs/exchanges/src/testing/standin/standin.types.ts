/** What a venue dialect of the stand-ins needs from the venue core (venue-standin.ts). */
import type { ExchangeName, MarketType } from '../../exchange.port';
import type { PaperVenue } from '../../paper.exchange';
import type { FillRow } from '../../paper.store';
import type { VenueAnswer, VenueRules } from '../../venues/venue-rules';
import type { StubHandler, StubRequest, StubResponse } from '../exchange-stub.server';

export interface StandInKey {
  apiKey: string;
  secret: string;
  passphrase?: string;
  userId: string;
}

/** What a dialect needs from the core. */
export interface StandInCore {
  venue: PaperVenue;
  rules: VenueRules;
  exchange: ExchangeName;
  market: MarketType;
  /** The account of the request's API key, or null (→ the venue's bad-key answer). */
  account(req: StubRequest): ReturnType<PaperVenue['account']> | null;
  now(): number;
  /** Our error → the venue's answer. */
  answer(e: unknown): StubResponse;
  venueAnswer(a: VenueAnswer): StubResponse;
  units(n: number): string;
  /** Trades of [from, to] (inclusive) of the account and symbol, oldest first. */
  fillsBetween(account: ReturnType<PaperVenue['account']>, symbol: string, from: number, to: number): FillRow[];
  /** The window a trade-history request covers, or the venue's refusal. */
  window(start: number | undefined, end: number | undefined): { from: number; to: number; newest: boolean } | { refused: StubResponse };
}

export type Dialect = (core: StandInCore) => Record<string, StubHandler>;

