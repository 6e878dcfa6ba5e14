/** Coin and exchange images from the cryptocurrency-icons npm package (never the network). */
import { venueOf } from '../venues';
import i_btc from 'cryptocurrency-icons/svg/color/btc.svg';
import i_eth from 'cryptocurrency-icons/svg/color/eth.svg';
import i_usdt from 'cryptocurrency-icons/svg/color/usdt.svg';
import i_usdc from 'cryptocurrency-icons/svg/color/usdc.svg';
import i_bnb from 'cryptocurrency-icons/svg/color/bnb.svg';
import i_xrp from 'cryptocurrency-icons/svg/color/xrp.svg';
import i_ada from 'cryptocurrency-icons/svg/color/ada.svg';
import i_sol from 'cryptocurrency-icons/svg/color/sol.svg';
import i_dot from 'cryptocurrency-icons/svg/color/dot.svg';
import i_doge from 'cryptocurrency-icons/svg/color/doge.svg';
import i_avax from 'cryptocurrency-icons/svg/color/avax.svg';
import i_ltc from 'cryptocurrency-icons/svg/color/ltc.svg';
import i_link from 'cryptocurrency-icons/svg/color/link.svg';
import i_atom from 'cryptocurrency-icons/svg/color/atom.svg';
import i_algo from 'cryptocurrency-icons/svg/color/algo.svg';
import i_bch from 'cryptocurrency-icons/svg/color/bch.svg';
import i_etc from 'cryptocurrency-icons/svg/color/etc.svg';
import i_fil from 'cryptocurrency-icons/svg/color/fil.svg';
import i_xtz from 'cryptocurrency-icons/svg/color/xtz.svg';
import i_xlm from 'cryptocurrency-icons/svg/color/xlm.svg';
import i_trx from 'cryptocurrency-icons/svg/color/trx.svg';
import i_eos from 'cryptocurrency-icons/svg/color/eos.svg';
import i_neo from 'cryptocurrency-icons/svg/color/neo.svg';
import i_vet from 'cryptocurrency-icons/svg/color/vet.svg';
import i_theta from 'cryptocurrency-icons/svg/color/theta.svg';
import i_xmr from 'cryptocurrency-icons/svg/color/xmr.svg';
import i_zec from 'cryptocurrency-icons/svg/color/zec.svg';
import i_dash from 'cryptocurrency-icons/svg/color/dash.svg';
import i_uni from 'cryptocurrency-icons/svg/color/uni.svg';
import i_aave from 'cryptocurrency-icons/svg/color/aave.svg';
import i_comp from 'cryptocurrency-icons/svg/color/comp.svg';
import i_mkr from 'cryptocurrency-icons/svg/color/mkr.svg';
import i_snx from 'cryptocurrency-icons/svg/color/snx.svg';
import i_sushi from 'cryptocurrency-icons/svg/color/sushi.svg';
import i_yfi from 'cryptocurrency-icons/svg/color/yfi.svg';
import i_crv from 'cryptocurrency-icons/svg/color/crv.svg';
import i_bat from 'cryptocurrency-icons/svg/color/bat.svg';
import i_zrx from 'cryptocurrency-icons/svg/color/zrx.svg';
import i_enj from 'cryptocurrency-icons/svg/color/enj.svg';
import i_mana from 'cryptocurrency-icons/svg/color/mana.svg';
import i_sand from 'cryptocurrency-icons/svg/color/sand.svg';
import i_chz from 'cryptocurrency-icons/svg/color/chz.svg';
import i_grt from 'cryptocurrency-icons/svg/color/grt.svg';
import i_kcs from 'cryptocurrency-icons/svg/color/kcs.svg';
import i_stx from 'cryptocurrency-icons/svg/color/stx.svg';
import i_gbp from 'cryptocurrency-icons/svg/color/gbp.svg';
import i_eur from 'cryptocurrency-icons/svg/color/eur.svg';
import i_nano from 'cryptocurrency-icons/svg/color/nano.svg';
import i_ont from 'cryptocurrency-icons/svg/color/ont.svg';
import i_qtum from 'cryptocurrency-icons/svg/color/qtum.svg';
import i_icx from 'cryptocurrency-icons/svg/color/icx.svg';
import i_waves from 'cryptocurrency-icons/svg/color/waves.svg';
import i_iost from 'cryptocurrency-icons/svg/color/iost.svg';
import generic from 'cryptocurrency-icons/svg/color/generic.svg';

const COINS: Record<string, string> = {
  BTC: i_btc,
  ETH: i_eth,
  USDT: i_usdt,
  USDC: i_usdc,
  BNB: i_bnb,
  XRP: i_xrp,
  ADA: i_ada,
  SOL: i_sol,
  DOT: i_dot,
  DOGE: i_doge,
  AVAX: i_avax,
  LTC: i_ltc,
  LINK: i_link,
  ATOM: i_atom,
  ALGO: i_algo,
  BCH: i_bch,
  ETC: i_etc,
  FIL: i_fil,
  XTZ: i_xtz,
  XLM: i_xlm,
  TRX: i_trx,
  EOS: i_eos,
  NEO: i_neo,
  VET: i_vet,
  THETA: i_theta,
  XMR: i_xmr,
  ZEC: i_zec,
  DASH: i_dash,
  UNI: i_uni,
  AAVE: i_aave,
  COMP: i_comp,
  MKR: i_mkr,
  SNX: i_snx,
  SUSHI: i_sushi,
  YFI: i_yfi,
  CRV: i_crv,
  BAT: i_bat,
  ZRX: i_zrx,
  ENJ: i_enj,
  MANA: i_mana,
  SAND: i_sand,
  CHZ: i_chz,
  GRT: i_grt,
  KCS: i_kcs,
  STX: i_stx,
  GBP: i_gbp,
  EUR: i_eur,
  NANO: i_nano,
  ONT: i_ont,
  QTUM: i_qtum,
  ICX: i_icx,
  WAVES: i_waves,
  IOST: i_iost,
};

export const QUOTES = ['USDT', 'USDC'];

/** 'BTCUSDT' → 'BTC' (the quote is the last 4 characters, spec section 3). */
export function baseAsset(symbol: string): string {
  const s = symbol.toUpperCase();
  for (const q of QUOTES) if (s.endsWith(q) && s.length > q.length) return s.slice(0, -q.length);
  return s;
}

export function coinIcon(symbolOrTicker: string): { src: string; known: boolean } {
  const t = baseAsset(symbolOrTicker);
  const src = COINS[t];
  return src ? { src, known: true } : { src: generic, known: false };
}

/** The exchange's mark, from the dashboard's venue table (frontend/src/venues.ts). */
export function exchangeIcon(exchange: string): string {
  return venueOf(exchange).icon;
}

export const COIN_TICKERS = Object.keys(COINS);
