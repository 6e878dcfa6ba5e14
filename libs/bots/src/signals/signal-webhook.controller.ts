import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Projector } from '@gridrocket/read-store';
import { AppRequest, correlationIdOf } from '@gridrocket/shared/http';
import { SignedRequest } from '@gridrocket/identity/nest';
import { SignalReceiver } from './receive-signal.handler';
import { rawBodyOf } from './signal-raw-body';
import { SignalAction } from './signal.events';

/**
 * The signal webhook (issue 32, docs/signals.md): `POST /api/signals/{botId}` starts or stops the bot.
 * No session, no cookie, no CSRF header: each request proves itself with the bot's signal secret
 * (X-Signature, or the secret in the JSON body where the owner allowed it). 202 `{id, action, outcome,
 * state, heldPosition?}` (issue 40: `kept` or `sold-first` when a start met a held position); 400 malformed or stale, 401 not authentic, 404 no webhook, 409 replayed id or a start/stop
 * the bot refuses, 413 body too large, 429 too many.
 */
@ApiTags('signals')
@Controller('signals')
export class SignalWebhookController {
  constructor(
    private readonly receiver: SignalReceiver,
    private readonly projector: Projector,
  ) {}

  @Post(':botId')
  @HttpCode(202)
  @SignedRequest()
  async receive(@Param('botId') botId: string, @Req() req: AppRequest, @Res({ passthrough: true }) res: Response): Promise<{ id: string; action: SignalAction; outcome: 'requested' | 'unchanged'; state: string; heldPosition?: 'kept' | 'sold-first' }> {
    res.setHeader('cache-control', 'no-store');
    const answer = await this.receiver.receive(botId, req.headers, rawBodyOf(req), req.headers['content-type'], correlationIdOf(req));
    // answered once the bot list shows it, as the dashboard's start and stop are
    if (answer.position !== null) await this.projector.waitFor(answer.position);
    return { id: answer.id, action: answer.action, outcome: answer.outcome, state: answer.state, ...(answer.heldPosition ? { heldPosition: answer.heldPosition } : {}) };
  }
}
