/** Bot templates (issue 32, docs/range-and-templates.md), injected into the one RTK Query api. */
import { api } from '../api/api';
import type { BotConfig } from '@gridrocket/bots/domain/bot.events';
import type { BotType, Exchange } from '../api/types';

/**
 * A template's settings: the create body's fields (POST /api/bots takes them as they are), i.e. the
 * server's own BotConfig with the bot type, so a setting added there (the direction) is not lost here.
 */
export type TemplateSettings = Omit<BotConfig, 'exchange'> & { botType: BotType; exchange: Exchange };

export interface BotTemplate {
  id: string;
  name: string;
  settings: TemplateSettings;
  fromBotId: string | null;
  createdAt: string;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['Templates'] });

export const templatesApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getTemplates: b.query<BotTemplate[], void>({
      query: () => ({ url: '/api/bot-templates' }),
      transformResponse: (raw: { templates?: BotTemplate[] }) => raw?.templates ?? [],
      providesTags: ['Templates'],
    }),
    saveTemplate: b.mutation<BotTemplate, { name: string; botId: string } | { name: string; settings: Record<string, unknown> }>({
      query: (body) => ({ url: '/api/bot-templates', method: 'POST', body }),
      invalidatesTags: ['Templates'],
    }),
    deleteTemplate: b.mutation<void, string>({
      query: (id) => ({ url: `/api/bot-templates/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Templates'],
    }),
  }),
});

export const { useGetTemplatesQuery, useSaveTemplateMutation, useDeleteTemplateMutation } = templatesApi;
