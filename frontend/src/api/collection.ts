/**
 * The endpoint definitions an owned collection's api shares (issue 42: the sessions, access tokens and bot
 * templates each wrote them): its list, read from the answer's `key`, and removing one by id.
 */
import { apiPath, type ApiPath } from './contract';

const pathOf = apiPath as (template: ApiPath, params?: Record<string, string>) => string;

/** GET `path`, the answer's `key` (an empty list without one), cached under `tag`. */
export function listOf<Item, Tag extends string>(path: ApiPath, key: string, tag: Tag) {
  return {
    query: () => ({ url: pathOf(path) }),
    transformResponse: (raw: Record<string, Item[] | undefined> | null) => raw?.[key] ?? [],
    providesTags: [tag],
  };
}

/** DELETE `path` (its `{id}` the argument), and `tag`'s list read again. */
export function removeById<Tag extends string>(path: ApiPath, tag: Tag) {
  return {
    query: (id: string) => ({ url: pathOf(path, { id }), method: 'DELETE' as const }),
    invalidatesTags: [tag],
  };
}
