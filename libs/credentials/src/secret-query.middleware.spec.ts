import { secretParametersIn } from './secret-query.middleware';

describe('secret parameters in a query string', () => {
  it.each([
    ['/api/api-credentials?keySecret=abc', ['keysecret']],
    ['/api/api-credentials?userId=u&apiKey=abc&apiKeyId=x', ['apikey']],
    ['/api/x?PASSPHRASE=a', ['passphrase']],
    ['/api/x?access[keySecret]=a&access%5BpassPhrase%5D=b', ['keysecret', 'passphrase']],
    ['/api/x?access.secretKey=a', ['secretkey']],
    ['/api/x?secret_key=a&api-secret=b', ['secret_key', 'api-secret']],
    ['/api/x?secret', ['secret']],
  ])('%s → %j', (url, names) => {
    expect(secretParametersIn(url)).toEqual(names);
  });
  it.each(['/api/balanceSpot?userId=u&exchange=Binance', '/api/api-credentials', '/api/x?apiKeyId=abc', '/api/x?symbol=BTCUSDT#secret=1'])('%s is fine', (url) => {
    expect(secretParametersIn(url)).toEqual([]);
  });
});
