import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MissingCredentialError } from './exchange.errors';
import { createExchangeProvider, exchangeConfigFromEnv } from './exchange.provider';
import { toCcxtSymbol, fromCcxtSymbol, splitSymbol } from './exchange.port';
import { ccxtExchangeId } from './venues/registry';

describe('exchange provider from configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exchange-provider-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }));

  it('reads EXCHANGE_MODE (paper by default) and PAPER_PRICES', () => {
    expect(exchangeConfigFromEnv({})).toEqual({ mode: 'paper', paperPrices: undefined, paperSeed: undefined });
    expect(exchangeConfigFromEnv({ EXCHANGE_MODE: 'testnet', PAPER_PRICES: '/x.csv' })).toMatchObject({ mode: 'testnet', paperPrices: '/x.csv' });
    expect(() => exchangeConfigFromEnv({ EXCHANGE_MODE: 'real' })).toThrow('EXCHANGE_MODE must be paper, live or testnet');
  });

  it('paper: a provider whose feed follows the injected clock, state in the data folder', async () => {
    let now = 1_700_000_000_000;
    const { provider, paper } = createExchangeProvider({ mode: 'paper', dataDir: dir, resolveCredential: async () => null, clock: () => now, startFeed: false });
    const port = await provider.for({ userId: 'u', exchange: 'Kucoin', market: 'spot' });
    expect((await port.balances())[0]).toEqual({ symbol: 'USDT', exchange: 'Kucoin', balance: 10000, available: 10000 });
    paper!.driver.tick();
    now += 5000;
    expect(paper!.driver.tick().length).toBeGreaterThan(0);
    expect(paper!.venue.store.path).toBe(join(dir, 'paper-exchange.sqlite'));
    await provider.close();
  });

  it('live: no credential → MissingCredentialError (the routes answer 409)', async () => {
    const { provider } = createExchangeProvider({ mode: 'live', dataDir: dir, resolveCredential: async () => null });
    await expect(provider.for({ userId: 'u', exchange: 'Binance', market: 'futures' })).rejects.toBeInstanceOf(MissingCredentialError);
    await provider.close();
  });

  it('maps the spec pairs to ccxt symbols and ids', () => {
    expect(toCcxtSymbol('BTCUSDT', 'spot')).toBe('BTC/USDT');
    expect(toCcxtSymbol('BTCUSDC', 'futures')).toBe('BTC/USDC:USDC');
    expect(fromCcxtSymbol('ETH/USDT:USDT')).toBe('ETHUSDT');
    expect(splitSymbol('grassusdt')).toEqual({ base: 'GRASS', quote: 'USDT' });
    expect(() => splitSymbol('BTCEUR')).toThrow();
    expect([ccxtExchangeId('Binance', 'spot'), ccxtExchangeId('Binance', 'futures'), ccxtExchangeId('Kucoin', 'spot'), ccxtExchangeId('Kucoin', 'futures')]).toEqual([
      'binance', 'binanceusdm', 'kucoin', 'kucoinfutures',
    ]);
  });
});
