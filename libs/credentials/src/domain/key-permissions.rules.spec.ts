import { botStartRefusal, keyRefusal, keyWarnings } from './key-permissions.rules';

const tradingOnly = { withdraw: false, read: true, spot: true, futures: true, ipRestricted: true };

describe('keys that cannot withdraw: the rules (issue 30)', () => {
  it('accepts a trading-only key; refuses withdrawals first, then no trading, then no reading, per venue', () => {
    expect(keyRefusal('Binance', tradingOnly)).toBeNull();
    expect(keyRefusal('Binance', { ...tradingOnly, spot: false })).toBeNull(); // futures only is enough to add
    expect(keyRefusal('Binance', { ...tradingOnly, withdraw: true, spot: false })).toMatch(/^This Binance API key can withdraw funds.*leave "Enable Withdrawals" unticked\. Then add the key here again\.$/);
    expect(keyRefusal('Kucoin', { ...tradingOnly, withdraw: true })).toMatch(/^This KuCoin API key can withdraw funds.*only the General and Spot permissions \(plus Futures for futures bots\); leave Withdrawal \(Transfer\) unticked\./);
    expect(keyRefusal('Kucoin', { ...tradingOnly, spot: false, futures: false })).toMatch(/cannot trade: the bots need Spot for spot bots or Futures for futures bots/);
    expect(keyRefusal('Binance', { ...tradingOnly, read: false })).toMatch(/cannot read the account \("Enable Reading" is off\)/);
  });

  it('starts no bot whose market the key cannot trade, none with a withdraw-capable key; an unchecked key is not blocked', () => {
    expect(botStartRefusal('Binance', 'futures', { ...tradingOnly, futures: false })).toMatch(/cannot trade futures: it needs the "Enable Futures" permission/);
    expect(botStartRefusal('Kucoin', 'spot', { ...tradingOnly, spot: false })).toMatch(/cannot trade spot: it needs the Spot permission/);
    expect(botStartRefusal('Binance', 'spot', { ...tradingOnly, futures: false })).toBeNull();
    expect(botStartRefusal('Binance', 'spot', { ...tradingOnly, withdraw: true })).toMatch(/can now withdraw funds, so no new bot starts with it/);
    expect(botStartRefusal('Binance', 'spot', null)).toBeNull();
  });

  it('warns about a key without an IP restriction, naming the configured egress addresses or saying whose address', () => {
    const open = { ...tradingOnly, ipRestricted: false };
    expect(keyWarnings('Binance', tradingOnly, null, ['203.0.113.7'])).toEqual([]);
    expect(keyWarnings('Binance', { ...tradingOnly, ipRestricted: null }, null, [])).toEqual([]); // paper: not applicable
    const [w] = keyWarnings('Binance', open, null, ['203.0.113.7', '2001:db8::1']);
    expect(w).toEqual({ code: 'no-ip-restriction', message: expect.stringContaining('"Restrict access to trusted IPs only" and add: 203.0.113.7, 2001:db8::1.') });
    expect(keyWarnings('Kucoin', open, null, [])[0].message).toContain('the address of this GridRocket server (ask its operator for it)');
  });

  it('flags a key that can now withdraw, and one the venue refused (keeping the last facts)', () => {
    expect(keyWarnings('Kucoin', { ...tradingOnly, withdraw: true }, null, []).map((w) => w.code)).toEqual(['withdraw-enabled']);
    expect(keyWarnings('Binance', tradingOnly, 'refused', []).map((w) => w.code)).toEqual(['key-refused']);
    expect(keyWarnings('Binance', tradingOnly, 'unreachable', [])).toEqual([]); // a venue outage is not the key's fault
  });
});
