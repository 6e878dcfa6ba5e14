import type { Projection } from '@gridrocket/read-store';
import type { BotTemplateEvent, TemplateSettings } from './bot-template.decider';

/** A saved template as the list shows it (issue 32); deleted ones are deleted. */
export interface BotTemplateDoc {
  id: string; // the template id
  uid: string;
  name: string;
  settings: TemplateSettings;
  /** The bot it was saved from, when it was saved from one. */
  fromBotId: string | null;
  createdAt: string;
}

export const BOT_TEMPLATES = 'bot_templates';

export const botTemplatesProjection: Projection<BotTemplateDoc> = {
  name: 'bot-templates',
  collection: BOT_TEMPLATES,
  indexes: ['uid'],
  filter: { streamPrefixes: ['templates-'], eventTypes: ['BotTemplateSaved', 'BotTemplateDeleted'] },
  docId: (e) => {
    const id = (e.data as { templateId?: unknown }).templateId;
    return typeof id === 'string' ? id : null;
  },
  reduce(_doc, event) {
    const e = { type: event.type, data: event.data } as BotTemplateEvent;
    if (e.type === 'BotTemplateSaved') {
      const { templateId, name, settings, fromBotId } = e.data;
      return { id: templateId, uid: event.streamId.slice('templates-'.length), name, settings, fromBotId: fromBotId ?? null, createdAt: event.metadata.occurredAt };
    }
    if (e.type === 'BotTemplateDeleted') return null;
    return undefined;
  },
};
