/**
 * The auditors' routes (issue 40, point 11), injected into the one RTK Query api from this module:
 * whether the user reads as an auditor, every user's bots a page at a time, one bot read-only.
 */
import { api } from '../api/api';
import { apiPath, type Answer, type Query, type Schemas } from '../api/contract';
import { useUser } from '../store/hooks';

/** A bot of the auditors' list (GET /api/audit/bots). */
export type AuditBot = Schemas['AuditBot'];
export type AuditBotStatus = AuditBot['status'];
export const AUDIT_STATUSES: readonly AuditBotStatus[] = ['running', 'starting', 'stopping', 'stopped', 'deleted'];

/** The list's filters (the query of GET /api/audit/bots, as the page's address holds them: the server checks them), a page at a time; '' for "any". */
export type AuditFilter = { [K in Exclude<keyof Query<'/api/audit/bots', 'get'>, 'limit' | 'offset'>]?: string } & { limit: number; offset: number };

export const auditApi = api.injectEndpoints({
  endpoints: (b) => ({
    getAuditMe: b.query<Answer<'/api/audit/me', 'get'>, void>({
      query: () => ({ url: apiPath('/api/audit/me') }),
    }),
    getAuditBots: b.query<Answer<'/api/audit/bots', 'get'>, AuditFilter>({
      query: (f) => ({ url: apiPath('/api/audit/bots'), params: Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number> }),
    }),
    getAuditBot: b.query<Answer<'/api/audit/bots/{id}', 'get'>, string>({
      query: (id) => ({ url: apiPath('/api/audit/bots/{id}', { id }) }),
    }),
  }),
});

export const { useGetAuditMeQuery, useGetAuditBotsQuery, useGetAuditBotQuery } = auditApi;

/** Whether the signed-in user reads as an auditor (false while unknown or signed out). */
export function useIsAuditor(): boolean {
  const user = useUser();
  const { data } = useGetAuditMeQuery(undefined, { skip: !user });
  return Boolean(user && data?.auditor);
}
