/**
 * The dashboard's venue table (issue 42): what differs between the venues a key can be linked to, as data.
 * Screens look a venue up by its name (`venueOf(exchange)`) and read its fields; none branches on a name.
 * The server's /api/exchange-mode answer carries no venue fields yet, so the table lives here, beside the
 * names the spec fixes ('Binance', 'Kucoin'); a new venue is one row.
 */
import i_bnb from 'cryptocurrency-icons/svg/color/bnb.svg';
import i_kcs from 'cryptocurrency-icons/svg/color/kcs.svg';

export interface DashboardVenue {
  /** The exchange's name as the API and the screens spell it. */
  exchange: string;
  /** Whether its API keys come with a passphrase (the key form then asks for it). */
  passphrase: boolean;
  /** Its mark, from the cryptocurrency-icons package (never the network). */
  icon: string;
  /** Where a trader opens an account (the home page's link), until GET /api/config answers with the server's. */
  signupUrl: string;
}

export const VENUES: readonly DashboardVenue[] = [
  { exchange: 'Binance', passphrase: false, icon: i_bnb, signupUrl: 'https://www.binance.com/en/register' },
  { exchange: 'Kucoin', passphrase: true, icon: i_kcs, signupUrl: 'https://www.kucoin.com/ucenter/signup' },
];

/** The key of an exchange in the client config's `exchangeSignup` (the spec's: its name in lower case). */
export function signupKey(v: DashboardVenue): string {
  return v.exchange.toLowerCase();
}

/** The venue of that exchange name; the first venue's row for a name it does not know (the old icon fallback). */
export function venueOf(exchange: string): DashboardVenue {
  return VENUES.find((v) => v.exchange === exchange) ?? { ...VENUES[0], exchange, passphrase: false };
}
