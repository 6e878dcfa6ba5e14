import { loadConfig } from './config';

describe('the configuration', () => {
  it("reads every <NAME>_SIGNUP_URL as an operator's sign-up link for that exchange (its name in lower case), and nothing else", () => {
    expect(loadConfig({}).exchangeSignup).toEqual({});
    const env = { KUCOIN_SIGNUP_URL: 'https://www.kucoin.com/r/rf/GRIDROCKET', OKX_SIGNUP_URL: 'https://okx.example/ref', SIGNUP_URL: 'x', BINANCE_SIGNUP_URL: '' };
    expect(loadConfig(env).exchangeSignup).toEqual({ kucoin: 'https://www.kucoin.com/r/rf/GRIDROCKET', okx: 'https://okx.example/ref' });
  });
});
