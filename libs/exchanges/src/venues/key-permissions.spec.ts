import { binanceKeyPermissions, kucoinKeyPermissions } from './key-permissions';

describe('what a key may do, as the venues answer it (issue 30)', () => {
  it('reads Binance GET /sapi/v1/account/apiRestrictions (the documented response example)', () => {
    // https://developers.binance.com/docs/wallet/account/api-key-permission, "Response Example"
    const example = {
      ipRestrict: false, createTime: 1698645219000, enableReading: true, enableWithdrawals: false, enableInternalTransfer: false, enableMargin: false,
      enableFutures: false, permitsUniversalTransfer: false, enableVanillaOptions: false, enableFixApiTrade: false, enableFixReadOnly: true,
      enableSpotAndMarginTrading: false, enablePortfolioMarginTrading: true,
    };
    expect(binanceKeyPermissions(example)).toEqual({ withdraw: false, read: true, spot: false, futures: false, ipRestricted: false });
    expect(binanceKeyPermissions({ ...example, enableWithdrawals: true, ipRestrict: true, enableSpotAndMarginTrading: true, enableFutures: true })).toEqual({
      withdraw: true, read: true, spot: true, futures: true, ipRestricted: true,
    });
  });

  it('does not guess from a Binance answer without the fields it decides on', () => {
    expect(binanceKeyPermissions({ enableReading: true })).toBeNull();
    expect(binanceKeyPermissions({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' })).toBeNull();
    expect(binanceKeyPermissions([])).toBeNull();
    expect(binanceKeyPermissions(null)).toBeNull();
  });

  it('reads KuCoin GET /api/v1/user/api-key: the permission list and the IP whitelist', () => {
    // https://www.kucoin.com/docs-new/rest/account-info/account-funding/get-apikey-info
    const answer = { code: '200000', data: { remark: 'account1', apiKey: '6705f5c311545b000157d3eb', apiVersion: 3, permission: 'General,Futures,Spot,Earn,InnerTransfer,Transfer,Margin', ipWhitelist: '203.**.154,103.**.34', createdAt: 1728443843000, uid: 165111215, isMaster: true } };
    expect(kucoinKeyPermissions(answer)).toEqual({ withdraw: true, read: true, spot: true, futures: true, ipRestricted: true });
    expect(kucoinKeyPermissions({ ...answer.data, permission: 'General,Spot', ipWhitelist: '' })).toEqual({ withdraw: false, read: true, spot: true, futures: false, ipRestricted: false });
    // moving funds between one's own accounts is not a withdrawal
    expect(kucoinKeyPermissions({ permission: 'General, Futures, InnerTransfer, FlexTransfers' })).toMatchObject({ withdraw: false, futures: true, ipRestricted: false });
    expect(kucoinKeyPermissions({ permission: 'General,Spot,Withdrawal', ipWhitelist: '1.2.**.4' })).toMatchObject({ withdraw: true });
  });

  it('does not guess from a KuCoin answer without a permission list', () => {
    expect(kucoinKeyPermissions({ code: '400003', msg: 'KC-API-KEY not exists' })).toBeNull();
    expect(kucoinKeyPermissions({ code: '200000', data: {} })).toBeNull();
  });
});
