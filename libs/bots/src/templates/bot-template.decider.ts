/**
 * Bot templates (issue 32, docs/range-and-templates.md): a user's saved bot settings, under a name, to
 * create bots from. One stream per user, `templates-<uid>` (not `bot-…`: the bot list reads every
 * `bot-` stream): the quota and the unique names are decided on that stream's revision, so two racing
 * saves cannot both pass them. Pure: no Nest, no store.
 */
import { ConflictError, NotFoundError, ValidationError } from '@gridrocket/shared';
import type { BotType } from '@gridrocket/shared';
import type { Decider } from '@gridrocket/shared';
import type { BotConfig } from '../domain/bot.events';

/** Templates per user at most. */
export const BOT_TEMPLATE_QUOTA = 50;
export const BOT_TEMPLATE_QUOTA_MESSAGE = `You have ${BOT_TEMPLATE_QUOTA} templates, the most allowed: delete one you no longer use first`;
export const BOT_TEMPLATE_NOT_FOUND = 'Template not found';
export const templateNameTaken = (name: string) => `You already have a template named ${name}`;

export const templateStream = (uid: string) => `templates-${uid}`;

/** What a template keeps: everything a create form takes (the bot's type and its config). */
export interface TemplateSettings extends BotConfig {
  botType: BotType;
}

export type BotTemplateEvent =
  | { type: 'BotTemplateSaved'; data: { templateId: string; name: string; settings: TemplateSettings; fromBotId?: string } }
  | { type: 'BotTemplateDeleted'; data: { templateId: string } };

export type BotTemplateCommand =
  | { type: 'SaveBotTemplate'; templateId: string; name: string; settings: TemplateSettings; fromBotId?: string }
  | { type: 'DeleteBotTemplate'; templateId: string };

/** The user's templates: id → name. */
export type BotTemplatesState = ReadonlyMap<string, { name: string }>;

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

export function decideBotTemplate(command: BotTemplateCommand, state: BotTemplatesState): BotTemplateEvent[] {
  switch (command.type) {
    case 'SaveBotTemplate': {
      if (state.has(command.templateId)) throw new ConflictError('This template already exists');
      for (const t of state.values()) if (sameName(t.name, command.name)) throw new ValidationError([{ field: 'name', message: templateNameTaken(command.name) }]);
      if (state.size >= BOT_TEMPLATE_QUOTA) throw new ConflictError(BOT_TEMPLATE_QUOTA_MESSAGE);
      const { templateId, name, settings, fromBotId } = command;
      return [{ type: 'BotTemplateSaved', data: { templateId, name, settings: { ...settings }, ...(fromBotId ? { fromBotId } : {}) } }];
    }
    case 'DeleteBotTemplate': {
      if (!state.has(command.templateId)) throw new NotFoundError(BOT_TEMPLATE_NOT_FOUND);
      return [{ type: 'BotTemplateDeleted', data: { templateId: command.templateId } }];
    }
  }
}

export function evolveBotTemplates(state: BotTemplatesState, event: BotTemplateEvent): BotTemplatesState {
  const next = new Map(state);
  if (event.type === 'BotTemplateSaved') next.set(event.data.templateId, { name: event.data.name });
  else if (event.type === 'BotTemplateDeleted') next.delete(event.data.templateId);
  return next;
}

export const botTemplateDecider: Decider<BotTemplateCommand, BotTemplateEvent, BotTemplatesState> = {
  initialState: new Map(),
  decide: decideBotTemplate,
  evolve: evolveBotTemplates,
};
