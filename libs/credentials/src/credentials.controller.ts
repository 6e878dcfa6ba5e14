import { Body, Delete, Get, HttpCode, Inject, Optional, Param, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { CommandContext, NotFoundError } from '@gridrocket/shared';
import { AppRequest, Ctx, IDEMPOTENCY_HANDLER, IdempotencyHandler, assertSameUser, idempotentIdOf, idempotently } from '@gridrocket/shared/http';
import { AccessTokenScopes, FreshCodeGuard, confirmFreshCode, SessionController } from '@gridrocket/identity/nest';
import type { CredentialDecision } from './application/add-credential.handler';
import { AddCredentialCommand, RemoveCredentialCommand } from './application/credential.commands';
import { CREDENTIAL_LIST_COLLECTION, CredentialDoc, CredentialView, publicCredential } from './credential-list.projection';
import { CREDENTIAL_NOT_FOUND } from './domain/credential.decider';
import { parseAddCredential } from './domain/credential.rules';
import { SecretValue } from './domain/secret-value';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The spec's API key calls (section 7), under /api. Secrets go in, never come out. */
@SessionController('api-credentials')
@AccessTokenScopes('keys') // issue 31: every exchange-key route, reads too, needs a token's keys scope
export class CredentialsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly projector: Projector,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(IDEMPOTENCY_HANDLER) private readonly idempotency?: IdempotencyHandler,
  ) {}

  private view = (doc: CredentialDoc): CredentialView => publicCredential(doc, this.config.keyChecks.egressIps);

  @Post()
  @HttpCode(201)
  // with two-factor sign-in on: a fresh code in X-TOTP (issue 30), spent only once the key would be added (issue 40)
  @UseGuards(FreshCodeGuard)
  add(@Body() body: unknown, @Ctx() ctx: CommandContext, @Req() req: AppRequest): Promise<CredentialView> {
    return idempotently(this.idempotency, req, 'CredentialsController.add', async () => {
      const input = parseAddCredential(body);
      assertSameUser(ctx.userId, input.userId);
      // Idempotency-Key (issue 11): the id derives from it, so a retry after a lost answer adds no second key.
      const id = idempotentIdOf(req) ?? randomUUID();
      const existing = idempotentIdOf(req) ? await this.reads.get<CredentialDoc>(CREDENTIAL_LIST_COLLECTION, id) : null;
      if (existing && existing.userid === ctx.userId) return this.view(existing);
      // QUOTA_KEYS is decided by the command, on the user's allotment in the event store (issue 28).
      const decision: CredentialDecision = await this.commands.execute(
        new AddCredentialCommand(
          ctx,
          id,
          input.exchange,
          input.apiKeyId,
          new SecretValue(input.secret),
          input.passphrase === null ? null : new SecretValue(input.passphrase),
          () => confirmFreshCode(req),
        ),
      );
      await this.projector.waitFor(decision.position);
      // The key as the list shows it, with its warnings (an IP restriction missing); the read model has it now.
      const added = await this.reads.get<CredentialDoc>(CREDENTIAL_LIST_COLLECTION, id);
      return added ? this.view(added) : { id, exchange: input.exchange, apikeyid: input.apiKeyId };
    });
  }

  @Get(':userId')
  async list(@Param('userId') userId: string, @Ctx() ctx: CommandContext): Promise<CredentialView[]> {
    assertSameUser(ctx.userId, userId);
    const docs = await this.reads.find<CredentialDoc>(CREDENTIAL_LIST_COLLECTION, { userid: ctx.userId }, { orderBy: { field: 'createdat' } });
    return docs.map(this.view);
  }

  @Delete(':id')
  @HttpCode(204)
  // with two-factor sign-in on: a fresh code in X-TOTP (issue 30), spent only once the key would be removed (issue 40)
  @UseGuards(FreshCodeGuard)
  async remove(@Param('id') id: string, @Ctx() ctx: CommandContext, @Req() req: AppRequest): Promise<void> {
    if (!ID.test(id)) throw new NotFoundError(CREDENTIAL_NOT_FOUND);
    const decision: CredentialDecision = await this.commands.execute(new RemoveCredentialCommand(ctx, id.toLowerCase(), () => confirmFreshCode(req)));
    await this.projector.waitFor(decision.position);
  }
}
