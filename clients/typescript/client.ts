import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './gridrocket-api';

export type { components, operations, paths } from './gridrocket-api';

/**
 * GridRocket's TypeScript client for scripts (issue 31): openapi-fetch's typed `fetch` over the types
 * openapi-typescript generates from the API's document (`gridrocket-api.d.ts`, `npm run api:client`).
 * Paths, parameters, bodies and answers are checked by the compiler against the document.
 *
 * Every request carries the personal access token as `Authorization: Bearer` and nothing else: no
 * cookie, no CSRF header (a token's requests need none, and a request with both is refused).
 *
 *   const api = createGridRocketClient('https://grid.example.com', process.env.GRIDROCKET_TOKEN!);
 *   const { data: bot, error } = await api.POST('/api/bots', { body: { ... } });
 *   await api.GET('/api/startBot', { params: { query: { id: bot!.id } } });
 */
export type GridRocketClient = Client<paths>;

export function createGridRocketClient(baseUrl: string, token: string, options: { fetch?: typeof fetch } = {}): GridRocketClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` }, ...options });
}
