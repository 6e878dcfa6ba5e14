import { Body, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { CommandContext, NotFoundError, ValidationError } from '@gridrocket/shared';
import { executeCommand } from '@gridrocket/shared/runtime';
import { Ctx } from '@gridrocket/shared/http';
import { AccessTokenScopes, SessionController } from '@gridrocket/identity/nest';
import { MarketCheck } from '../application/market-check';
import { BOT_LIST_COLLECTION, BotDoc } from '../bot-list.projection';
import { BOT_NOT_FOUND } from '../domain/bot.decider';
import { hasRange } from '../domain/bot-range.rules';
import { parseCreateBot, toFieldErrors } from '../domain/bot.rules';
import { BOT_TEMPLATE_NOT_FOUND, TemplateSettings, botTemplateDecider, templateStream } from './bot-template.decider';
import { BOT_TEMPLATES, BotTemplateDoc } from './bot-template-list.projection';
import { saveTemplateSchema } from './bot-template.rules';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A template as the API answers it: `settings` are the create body's fields (POST /api/bots takes them as they are). */
export interface BotTemplateView {
  id: string;
  name: string;
  settings: TemplateSettings;
  fromBotId: string | null;
  createdAt: string;
}

const view = (d: BotTemplateDoc): BotTemplateView => ({ id: d.id, name: d.name, settings: d.settings, fromBotId: d.fromBotId, createdAt: d.createdAt });

/** A bot's settings as a template keeps them: not its name (a template has its own) nor its investment (a template keeps the order size it sized, issue 40). */
function settingsOfBot(doc: BotDoc): TemplateSettings {
  const { name: _name, investment: _investment, ...config } = doc.s.config;
  return { botType: doc.s.botType, ...config };
}

/**
 * A user's bot templates (issue 32, docs/range-and-templates.md). Another user's template (or bot, to
 * save from) is 404, as one that does not exist. A bot is created from a template, or copied from another
 * bot, by the dashboard's form: it opens with the settings and checks them against today's market, and
 * POST /api/bots creates the bot.
 */
@SessionController('bot-templates')
export class BotTemplatesController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projector: Projector,
    private readonly market: MarketCheck,
  ) {}

  @Get()
  async list(@Ctx() ctx: CommandContext): Promise<{ templates: BotTemplateView[] }> {
    const docs = await this.reads.find<BotTemplateDoc>(BOT_TEMPLATES, { uid: ctx.userId });
    return { templates: docs.map(view).sort((a, b) => a.name.localeCompare(b.name)) };
  }

  @Get(':id')
  async get(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<BotTemplateView> {
    return view(await this.own(id, ctx));
  }

  @Post()
  @AccessTokenScopes('trade')
  @HttpCode(201)
  async save(@Body() body: unknown, @Ctx() ctx: CommandContext): Promise<BotTemplateView> {
    const parsed = saveTemplateSchema.safeParse(body ?? {});
    if (!parsed.success) throw new ValidationError(toFieldErrors(parsed.error));
    const { name, botId, settings: given } = parsed.data;
    let settings: TemplateSettings;
    if (botId !== undefined) {
      const doc = ID.test(botId) ? await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, botId.toLowerCase()) : null;
      if (!doc || doc.userid !== ctx.userId || !doc.s.config) throw new NotFoundError(BOT_NOT_FOUND);
      settings = settingsOfBot(doc);
    } else {
      // the create form's checks (a range converted at the market's price step), not the market's
      // minimums and prices of today: those are checked when a bot is created from it
      const raw = given as Record<string, unknown>;
      const priceStep = hasRange(raw) ? await this.market.priceStep(ctx, raw.botType, raw.exchange, raw.symbol) : undefined;
      const input = prefixed('settings', () => parseCreateBot(raw, { priceStep }));
      const { name: _name, ...config } = input.config; // (a template has its own name, issue 40)
      settings = { botType: input.botType, ...config };
    }
    const templateId = randomUUID();
    const r = await executeCommand(this.events, templateStream(ctx.userId), botTemplateDecider, { type: 'SaveBotTemplate', templateId, name, settings, ...(botId ? { fromBotId: botId.toLowerCase() } : {}) }, ctx);
    await this.projector.waitFor(r.position);
    return view(await this.own(templateId, ctx));
  }

  @Delete(':id')
  @AccessTokenScopes('trade')
  @HttpCode(204)
  async remove(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<void> {
    if (typeof id !== 'string' || !ID.test(id)) throw new NotFoundError(BOT_TEMPLATE_NOT_FOUND);
    const r = await executeCommand(this.events, templateStream(ctx.userId), botTemplateDecider, { type: 'DeleteBotTemplate', templateId: id.toLowerCase() }, ctx);
    await this.projector.waitFor(r.position);
  }

  private async own(id: string, ctx: CommandContext): Promise<BotTemplateDoc> {
    const doc = typeof id === 'string' && ID.test(id) ? await this.reads.get<BotTemplateDoc>(BOT_TEMPLATES, id.toLowerCase()) : null;
    if (!doc || doc.uid !== ctx.userId) throw new NotFoundError(BOT_TEMPLATE_NOT_FOUND);
    return doc;
  }
}

/** A nested object's field messages under its name (settings.entryPrice). */
function prefixed<T>(prefix: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ValidationError) throw new ValidationError(err.errors.map((e) => ({ field: `${prefix}.${e.field}`, message: e.message })));
    throw err;
  }
}
