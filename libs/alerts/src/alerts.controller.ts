import { Body, Get, HttpCode, Param, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import { EventSourcedPorts } from '@gridrocket/read-store/nest';
import { CommandContext, ValidationError } from '@gridrocket/shared';
import { RefusedDestinationError, checkedDestination } from '@gridrocket/shared/net';
import { executeCommand, loadState, wouldDecide } from '@gridrocket/shared/runtime';
import { AppRequest, Ctx, assertSameUser } from '@gridrocket/shared/http';
import { CurrentPasswordGuard, FreshCodeGuard, confirmFreshCode, SessionController } from '@gridrocket/identity/nest';
import { ALERT_DELIVERIES_COLLECTION, AlertDeliveryDoc, AlertDeliveryView, publicDelivery } from './alert-deliveries.projection';
import { AlertSettingsView, alertSettingsDecider, alertSettingsView, initialAlertSettings } from './domain/alert-settings.decider';
import { alertSettingsStream } from './domain/alert-settings.events';
import { MESSAGES, last4, parseAlertSettings } from './domain/alert-settings.rules';
import { AlertSecrets } from './delivery/alert-secrets';
import { AlertDispatcherLifecycle } from './delivery/alert-dispatcher.lifecycle';
import type { AlertTestResult } from './delivery/alert-dispatcher';
import { ALERT_CHANNELS, AlertChannel } from './domain/alert.kinds';

/**
 * Per-user alert settings and the delivery log (issue 29). The user is the session's: a `userId` in
 * the path that is not the session user's is refused (403), as everywhere. Secrets go in (sealed at
 * once), never come out: answers carry only whether one is set and its last 4 characters.
 */
@SessionController('alerts')
export class AlertsController {
  constructor(
    private readonly ports: EventSourcedPorts,
    private readonly secrets: AlertSecrets,
    private readonly lifecycle: AlertDispatcherLifecycle,
  ) {}

  @Get(':userId')
  async get(@Param('userId') userId: string, @Ctx() ctx: CommandContext): Promise<AlertSettingsView> {
    assertSameUser(ctx.userId, userId);
    const s = await loadState(this.ports.events, alertSettingsStream(ctx.userId), alertSettingsDecider);
    return alertSettingsView(s?.state ?? initialAlertSettings);
  }

  @Put(':userId')
  // the password or a sign-in within 5 minutes (issue 38), then, with two-factor sign-in on, a fresh code in X-TOTP (issue 30)
  // (issue 40: the code is spent only once the settings would be saved: a body with errors or a webhook
  // on an inside address is refused first, and the same code confirms the corrected one)
  @UseGuards(CurrentPasswordGuard, FreshCodeGuard)
  async save(@Param('userId') userId: string, @Body() body: unknown, @Ctx() ctx: CommandContext, @Req() req: AppRequest): Promise<AlertSettingsView> {
    assertSameUser(ctx.userId, userId);
    const input = parseAlertSettings(body, { allowPrivateUrls: this.ports.config.alerts.allowPrivateUrls });
    if (input.webhook.url) await this.assertReachableFromOutside(input.webhook.url);
    const uid = ctx.userId;
    const command = {
      type: 'SaveAlertSettings' as const,
      data: {
        userId: uid,
        kinds: input.kinds,
        email: input.email,
        webhook: {
          enabled: input.webhook.enabled,
          url: input.webhook.url,
          sealedSecret: input.webhook.secret === null ? null : this.secrets.seal(uid, 'webhookSecret', input.webhook.secret),
          secretLast4: input.webhook.secret === null ? null : last4(input.webhook.secret),
        },
        telegram: {
          enabled: input.telegram.enabled,
          chatId: input.telegram.chatId,
          sealedBotToken: input.telegram.botToken === null ? null : this.secrets.seal(uid, 'telegramBotToken', input.telegram.botToken),
          botTokenLast4: input.telegram.botToken === null ? null : last4(input.telegram.botToken),
        },
      },
    };
    await wouldDecide(this.ports.events, alertSettingsStream(uid), alertSettingsDecider, command);
    await confirmFreshCode(req);
    const { state } = await executeCommand(this.ports.events, alertSettingsStream(uid), alertSettingsDecider, command, ctx);
    return alertSettingsView(state);
  }

  /**
   * A webhook URL whose name resolves, now, to an address we never post to is refused at save (issue
   * 38); a name that does not resolve yet is kept (it is checked again, and pinned, at every send).
   */
  private async assertReachableFromOutside(url: string): Promise<void> {
    try {
      await checkedDestination(new URL(url), { allowPrivate: this.ports.config.alerts.allowPrivateUrls });
    } catch (err) {
      if (err instanceof RefusedDestinationError) throw new ValidationError([{ field: 'webhook.url', message: MESSAGES.urlPrivate }]);
    }
  }

  /**
   * "Send a test" (issue 40): `{channel: "email" | "webhook" | "telegram"}` → a test message on that channel
   * of the saved settings, tried once; 200 with what the far end answered (`delivered`, or `failed` /
   * `refused` with its code and error), also recorded in the delivery log. 400 on `channel` when it is not
   * one or not set up and saved; 429 past the channel's rate limit (ALERTS_RATE_LIMIT a minute).
   */
  @Post(':userId/test')
  @HttpCode(200)
  async test(@Param('userId') userId: string, @Body() body: unknown, @Ctx() ctx: CommandContext): Promise<AlertTestResult> {
    assertSameUser(ctx.userId, userId);
    const channel = (body && typeof body === 'object' && !Array.isArray(body) ? (body as { channel?: unknown }).channel : undefined) as AlertChannel;
    if (!(ALERT_CHANNELS as readonly unknown[]).includes(channel)) throw new ValidationError([{ field: 'channel', message: `Choose the channel to test: ${ALERT_CHANNELS.join(', ')}` }]);
    const result = await this.lifecycle.dispatcher.sendTest(ctx.userId, channel);
    return result;
  }

  /** The delivery log, newest first (time, event, channel, status code, attempts). */
  @Get(':userId/deliveries')
  async deliveries(@Param('userId') userId: string, @Query('limit') limit: string | undefined, @Ctx() ctx: CommandContext): Promise<AlertDeliveryView[]> {
    assertSameUser(ctx.userId, userId);
    const n = Math.min(200, Math.max(1, Number.parseInt(limit ?? '50', 10) || 50));
    const docs = await this.ports.reads.find<AlertDeliveryDoc>(ALERT_DELIVERIES_COLLECTION, { userid: ctx.userId }, { orderBy: { field: 'at', direction: 'desc' }, limit: n });
    return docs.map(publicDelivery);
  }
}
