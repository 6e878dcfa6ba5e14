import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { CommandContext, UnauthorizedError } from '@gridrocket/shared';
import { AppRequest, Ctx, CurrentUser, SessionUser, correlationIdOf, clientIpOf } from '@gridrocket/shared/http';
import { AuthThrottle, DEVICE_COOKIE } from '../auth.throttle';
import { SessionGuard } from '../session.guard';
import { CurrentPasswordGuard } from '../reauth/current-password.guard';
import { SessionOnly } from '../access-tokens/access-token.scope';
import { publicUser, setSessionCookie } from '../session.service';
import { PENDING_COOKIE } from './two-factor.tokens';
import { SIGN_IN_EXPIRED, TwoFactorService, parseSecondFactor } from './two-factor.service';

/**
 * Two-factor sign-in (issue 30), under /api/auth/2fa. Every POST needs the CSRF header like every other
 * state-changing route; all but `verify` need a session. `verify` needs the pending sign-in cookie that
 * the password step (or Google/Facebook) set with its 202 "code needed" answer.
 */
@ApiTags('auth')
@Controller('auth/2fa')
@SessionOnly() // issue 31: never with an access token
export class TwoFactorController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly throttle: AuthThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private client(req: AppRequest, uid: string) {
    return this.throttle.clientOf(uid, clientIpOf(req), req.cookies?.[DEVICE_COOKIE]);
  }

  @Get()
  @UseGuards(SessionGuard)
  status(@CurrentUser() user: SessionUser) {
    return this.twoFactor.status(user.uid);
  }

  /** Starts (or restarts) enrolment: a new secret, shown this once; 2FA is on only after `enable`. */
  @Post('setup')
  @HttpCode(200)
  @UseGuards(SessionGuard, CurrentPasswordGuard) // the password, or a sign-in within 5 minutes (issue 38)
  setup(@CurrentUser() user: SessionUser, @Ctx() ctx: CommandContext) {
    return this.twoFactor.start(user.uid, user.email, ctx);
  }

  /** `{code}` from the new secret: 2FA on; answers the ten recovery codes, this once. */
  @Post('enable')
  @HttpCode(200)
  @UseGuards(SessionGuard, CurrentPasswordGuard) // the password, or a sign-in within 5 minutes (issue 38)
  async enable(@CurrentUser() user: SessionUser, @Body() body: unknown, @Req() req: AppRequest, @Ctx() ctx: CommandContext) {
    const { recoveryCodes } = await this.twoFactor.enable(user.uid, body, this.client(req, user.uid), ctx, user.sessionId);
    return { enabled: true, recoveryCodes, message: 'Two-factor sign-in is on. Keep these recovery codes somewhere safe: each works once, and they are not shown again.' };
  }

  /** `{code}` or `{recoveryCode}`: 2FA off. */
  @Post('disable')
  @HttpCode(200)
  @UseGuards(SessionGuard, CurrentPasswordGuard) // the password, or a sign-in within 5 minutes (issue 38)
  async disable(@CurrentUser() user: SessionUser, @Body() body: unknown, @Req() req: AppRequest, @Ctx() ctx: CommandContext) {
    await this.twoFactor.disable(user.uid, body, this.client(req, user.uid), ctx);
    return { enabled: false, message: 'Two-factor sign-in is off.' };
  }

  /** The sign-in's code step: `{code}` or `{recoveryCode}`, and `remember` (skip the code on this browser for 30 days). */
  @Post('verify')
  @HttpCode(200)
  async verify(@Body() body: unknown, @Req() req: AppRequest, @Res({ passthrough: true }) res: Response) {
    const input = parseSecondFactor(body);
    const pending = this.twoFactor.pendingOf(req.cookies?.[PENDING_COOKIE]);
    if (!pending) throw new UnauthorizedError(SIGN_IN_EXPIRED);
    const client = this.client(req, pending.uid);
    const { token, user } = await this.twoFactor.completeSignIn(pending, input, client, { correlationId: correlationIdOf(req) }, res, { userAgent: req.headers['user-agent'], ip: clientIpOf(req) });
    setSessionCookie(res, token, this.config);
    // as after any sign-in: this browser is one that signed in to the account (its failed attempts are counted apart)
    res.cookie(DEVICE_COOKIE, this.throttle.deviceCookie(user.uid, client.deviceId), { httpOnly: true, sameSite: 'lax', secure: this.config.cookieSecure, path: '/api/auth', maxAge: 365 * 86_400_000 });
    return publicUser(user);
  }
}
