import { Body, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { CommandContext } from '@gridrocket/shared';
import { AppRequest, Ctx, CurrentUser, SessionUser } from '@gridrocket/shared/http';
import { SessionController } from '../session-controller';
import { FreshCodeGuard, confirmFreshCode } from '../two-factor/fresh-code.guard';
import { SessionOnly } from './access-token.scope';
import { CurrentPasswordGuard } from '../reauth/current-password.guard';
import { AccessTokenService } from './access-token.service';

/**
 * Issue 31: the user's personal access tokens, managed from the dashboard only: these routes take the
 * session (with the CSRF header on changes), never a token, so a leaked token cannot mint more or outlive
 * its own revocation.
 */
@SessionController('access-tokens', 'tokens')
@SessionOnly()
export class AccessTokensController {
  constructor(private readonly tokens: AccessTokenService) {}

  @Get()
  async list(@CurrentUser() user: SessionUser) {
    return { tokens: await this.tokens.list(user.uid) };
  }

  /** `{name, scopes, expiresInDays}`: the answer carries the token, this once. With 2FA on: a fresh code in X-TOTP. */
  @Post()
  @UseGuards(CurrentPasswordGuard, FreshCodeGuard) // the password or a recent sign-in, then the code (issue 38)
  async create(@CurrentUser() user: SessionUser, @Body() body: unknown, @Ctx() ctx: CommandContext, @Req() req: AppRequest) {
    // issue 40: the code is spent only once the token would be made (a bad body or the quota is refused first)
    return this.tokens.create(user.uid, body, ctx, () => confirmFreshCode(req));
  }

  @Delete(':id')
  @HttpCode(204)
  async revoke(@Param('id') id: string, @CurrentUser() user: SessionUser, @Ctx() ctx: CommandContext) {
    await this.tokens.revoke(user.uid, id, ctx);
  }
}
