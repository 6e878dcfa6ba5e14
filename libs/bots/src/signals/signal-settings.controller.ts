import { Body, Delete, Get, HttpCode, Inject, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { CommandContext, NotFoundError } from '@gridrocket/shared';
import { APP_CONFIG, AppConfig, executeCommand, loadState, wouldDecide } from '@gridrocket/shared/runtime';
import { AppRequest, Ctx } from '@gridrocket/shared/http';
import { FreshCodeGuard, confirmFreshCode, SessionController } from '@gridrocket/identity/nest';
import { BOT_NOT_FOUND, botDecider } from '../domain/bot.decider';
import { botStream } from '../domain/bot.events';
import { SignalSecrets, last4 } from './signal-secrets';
import { SignalSettingsState, initialSignalSettings, nextGeneration, signalSettingsDecider } from './signal-settings.decider';
import { parseHeldPosition, parseSignalSettings } from './signal-settings.rules';
import { SignalHeldPosition, signalSettingsStream } from './signal.events';
import { SIGNAL_WINDOW_SECONDS } from './signal.rules';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the owner sees of a bot's signal webhook: never the secret, only its last 4 characters. */
export interface SignalSettingsView {
  enabled: boolean;
  url: string;
  secretLast4: string | null;
  allowBodySecret: boolean;
  windowSeconds: number;
  /** What a start signal does with a held position (issue 40): refuse, resume (start with it), sell (sell it first). */
  heldPosition: SignalHeldPosition;
}

/** The answer of enabling or rotating: the secret, this once. */
export type SignalSecretView = SignalSettingsView & { secret: string };

/**
 * A bot's signal webhook, for its owner (issue 32, docs/signals.md): enable (a new secret, answered
 * once), rotate (a new secret; the old one stops at once), disable. Another user's bot, or a missing
 * one, is 404 as everywhere. Enabling and rotating are sensitive: with two-factor sign-in on they need a
 * fresh code (X-TOTP), as adding an exchange key does.
 */
@SessionController('signals', 'bots/:id/signals')
export class SignalSettingsController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SignalSecrets,
  ) {}

  /** The user's own live bot's id, or 404. */
  private async ownBot(id: string, ctx: CommandContext): Promise<string> {
    if (typeof id !== 'string' || !ID.test(id)) throw new NotFoundError(BOT_NOT_FOUND);
    const botId = id.toLowerCase();
    const bot = (await loadState(this.events, botStream(botId), botDecider))?.state;
    if (!bot || bot.kind !== 'live' || bot.userId !== ctx.userId) throw new NotFoundError(BOT_NOT_FOUND);
    return botId;
  }

  /** A body's settings (400 when invalid, before anything else), then the user's own bot (404). */
  private async settingsFor(id: string, body: unknown, ctx: CommandContext) {
    const input = parseSignalSettings(body);
    return { input, botId: await this.ownBot(id, ctx) };
  }

  private view(botId: string, s: SignalSettingsState): SignalSettingsView {
    return { enabled: s.enabled, url: `${this.config.publicUrl}/api/signals/${botId}`, secretLast4: s.enabled ? s.secretLast4 : null, allowBodySecret: s.enabled && s.allowBodySecret, windowSeconds: SIGNAL_WINDOW_SECONDS, heldPosition: s.enabled ? s.heldPosition : 'refuse' };
  }

  private async settings(botId: string): Promise<SignalSettingsState> {
    return (await loadState(this.events, signalSettingsStream(botId), signalSettingsDecider))?.state ?? initialSignalSettings;
  }

  @Get()
  async get(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<SignalSettingsView> {
    const botId = await this.ownBot(id, ctx);
    return this.view(botId, await this.settings(botId));
  }

  /** Turns the webhook on with a new secret (409 when on already: rotate instead). */
  @Post()
  @HttpCode(201)
  @UseGuards(FreshCodeGuard)
  async enable(@Param('id') id: string, @Body() body: unknown, @Ctx() ctx: CommandContext, @Req() req: AppRequest): Promise<SignalSecretView> {
    const { input, botId } = await this.settingsFor(id, body, ctx);
    return this.newSecret(botId, ctx, req, 'EnableSignalWebhook', input.allowBodySecret ?? false, input.heldPosition ?? 'refuse');
  }

  /** A new secret; the old one is refused from now on. `allowBodySecret` kept unless given. */
  @Post('rotate')
  @HttpCode(200)
  @UseGuards(FreshCodeGuard)
  async rotate(@Param('id') id: string, @Body() body: unknown, @Ctx() ctx: CommandContext, @Req() req: AppRequest): Promise<SignalSecretView> {
    const { input, botId } = await this.settingsFor(id, body, ctx);
    const current = await this.settings(botId);
    return this.newSecret(botId, ctx, req, 'RotateSignalSecret', input.allowBodySecret ?? current.allowBodySecret, input.heldPosition ?? current.heldPosition);
  }

  /**
   * The owner's standing choice for a held position (issue 40): `{heldPosition: "refuse" | "resume" |
   * "sell"}`. 404 when signals are off. Sensitive as enabling is ("sell" lets a signal sell at market):
   * with two-factor sign-in on it needs a fresh code (X-TOTP).
   */
  @Patch()
  @HttpCode(200)
  @UseGuards(FreshCodeGuard)
  async choose(@Param('id') id: string, @Body() body: unknown, @Ctx() ctx: CommandContext, @Req() req: AppRequest): Promise<SignalSettingsView> {
    const heldPosition = parseHeldPosition(body);
    const botId = await this.ownBot(id, ctx);
    const command = { type: 'ChooseHeldPosition' as const, botId, userId: ctx.userId, heldPosition };
    await wouldDecide(this.events, signalSettingsStream(botId), signalSettingsDecider, command); // signals off: 404 before the code
    await confirmFreshCode(req);
    const { state } = await executeCommand(this.events, signalSettingsStream(botId), signalSettingsDecider, command, ctx);
    return this.view(botId, state);
  }

  @Delete()
  @HttpCode(204)
  async disable(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<void> {
    const botId = await this.ownBot(id, ctx);
    await executeCommand(this.events, signalSettingsStream(botId), signalSettingsDecider, { type: 'DisableSignalWebhook', botId, userId: ctx.userId }, ctx);
  }

  private async newSecret(botId: string, ctx: CommandContext, req: AppRequest, type: 'EnableSignalWebhook' | 'RotateSignalSecret', allowBodySecret: boolean, heldPosition: SignalHeldPosition): Promise<SignalSecretView> {
    const secret = SignalSecrets.generate();
    // the generation is decided on the state the command reads: sealed for the one it will record
    const current = await this.settings(botId);
    const generation = nextGeneration(current);
    const data = { botId, userId: ctx.userId, generation, sealedSecret: this.secrets.seal(botId, ctx.userId, generation, secret), secretLast4: last4(secret), allowBodySecret, heldPosition };
    // A concurrent enable or rotation makes this one re-decide on a newer generation: refused (409)
    // rather than recording a secret sealed for a generation that is already taken.
    const command = { type, data, expectedGeneration: current.generation };
    await wouldDecide(this.events, signalSettingsStream(botId), signalSettingsDecider, command); // on already, or off: refused before the code
    await confirmFreshCode(req);
    const { state } = await executeCommand(this.events, signalSettingsStream(botId), signalSettingsDecider, command, ctx);
    return { ...this.view(botId, state), secret };
  }
}
