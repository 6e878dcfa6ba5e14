/** Bot templates (issue 32, docs/range-and-templates.md), injected into the one RTK Query api. */
import { api } from '../api/api';
import { listOf, removeById } from '../api/collection';
import { apiPath, type Answer, type Body, type Schemas } from '../api/contract';

export type BotTemplate = Schemas['BotTemplate'];

/**
 * A template's settings: the create body's fields (POST /api/bots takes them as they are; the
 * document's CreateBot), so a setting added there (the direction) is not lost here.
 */
export type TemplateSettings = BotTemplate['settings'];

const tagged = api.enhanceEndpoints({ addTagTypes: ['Templates'] });

export const templatesApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getTemplates: b.query<BotTemplate[], void>(listOf<BotTemplate, 'Templates'>('/api/bot-templates', 'templates', 'Templates')),
    saveTemplate: b.mutation<Answer<'/api/bot-templates', 'post'>, Body<'/api/bot-templates', 'post'>>({
      query: (body) => ({ url: apiPath('/api/bot-templates'), method: 'POST', body }),
      invalidatesTags: ['Templates'],
    }),
    deleteTemplate: b.mutation<Answer<'/api/bot-templates/{id}', 'delete'>, string>(removeById('/api/bot-templates/{id}', 'Templates')),
  }),
});

export const { useGetTemplatesQuery, useSaveTemplateMutation, useDeleteTemplateMutation } = templatesApi;
