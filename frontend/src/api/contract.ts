/**
 * The dashboard's request and answer types, read from the API's OpenAPI document (issue 42): the
 * declarations openapi-typescript generates from the document of this build
 * (`clients/typescript/gridrocket-api.d.ts`, `npm run api:client`, never edited by hand). Nothing here
 * restates a server type: an endpoint names its path and method, and its argument and answer follow.
 * A field the server's contract drops or renames fails the dashboard's typecheck
 * (test/dashboard-contract.spec.ts runs it in `npm test`); docs/api.md "The dashboard's types".
 */
import type { components, paths } from '../../../clients/typescript/gridrocket-api';

export type { paths };

/** The document's named schemas (`components.schemas`): `Schemas['Bot']`, `Schemas['Backtest']`… */
export type Schemas = components['schemas'];

/** A path of the document, as its template: '/api/bots/{id}'. */
export type ApiPath = keyof paths;

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The methods the document declares on a path. */
export type MethodOf<P extends ApiPath> = { [M in Method]-?: [NonNullable<paths[P][M]>] extends [never] ? never : M }[Method];

type Operation<P extends ApiPath, M extends MethodOf<P>> = NonNullable<paths[P][M]>;
type Responses<P extends ApiPath, M extends MethodOf<P>> = Operation<P, M> extends { responses: infer R } ? R : never;
type SuccessOf<R> = R[Extract<keyof R, 200 | 201 | 202 | 204>];

/**
 * The body of an operation's success answer (2xx) in a media type (default JSON); `null` for one
 * without content (204), as `request` reads it.
 */
export type Answer<P extends ApiPath, M extends MethodOf<P>, T extends string = 'application/json'> =
  SuccessOf<Responses<P, M>> extends infer S ? (S extends { content: infer C } ? (T extends keyof C ? C[T] : never) : null) : never;

/** An operation's JSON request body. */
export type Body<P extends ApiPath, M extends MethodOf<P>> = Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** An operation's query parameters (`{}` when it has none). */
export type Query<P extends ApiPath, M extends MethodOf<P>> = Operation<P, M> extends { parameters: { query?: infer Q } } ? ([Q] extends [never | undefined] ? Record<string, never> : NonNullable<Q>) : never;

/** The names of a path template's parameters: '/api/bots/{id}/trades' → 'id'. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;

/**
 * The URL of a path of the document with its parameters filled in (each encoded): the template is
 * checked against the document, so a path the server no longer has fails the typecheck.
 *   apiPath('/api/bots/{id}/summary', { id })
 */
export function apiPath<P extends ApiPath>(template: P, ...params: PathParamNames<P> extends never ? [] : [Record<PathParamNames<P>, string>]): string {
  const values = (params[0] ?? {}) as Record<string, string>;
  return (template as string).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]));
}
