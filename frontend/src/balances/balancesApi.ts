/** The balances page's route (issue 40), injected into the one RTK Query api from this module. */
import { api } from '../api/api';
import { apiPath, type Answer, type Schemas } from '../api/contract';

export type AccountBalances = Schemas['AccountBalances'];
export type AssetBalance = AccountBalances['assets'][number];
export type BalancesAnswer = Answer<'/api/balances', 'get'>;

export const balancesApi = api.injectEndpoints({
  endpoints: (b) => ({
    getBalances: b.query<BalancesAnswer, void>({
      query: () => ({ url: apiPath('/api/balances') }),
    }),
  }),
});

export const { useGetBalancesQuery } = balancesApi;
