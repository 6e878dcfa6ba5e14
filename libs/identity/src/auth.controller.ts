import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { CommandContext } from '@gridrocket/shared';
import { AppRequest, Ctx, CurrentUser, SessionUser, correlationIdOf, clientIpOf } from '@gridrocket/shared/http';
import { AccountService } from './account.service';
import { AuthThrottle, DEVICE_COOKIE } from './auth.throttle';
import { credentialsSchema, forgotPasswordSchema, parseOrThrow, registerSchema, resetPasswordSchema, verifyEmailSchema } from './auth.rules';
import { CSRF_COOKIE } from './csrf.middleware';
import { SessionGuard } from './session.guard';
import { SessionOnly } from './access-tokens/access-token.scope';
import { SESSION_COOKIE, SessionService, publicUser, setSessionCookie } from './session.service';
import { SecondFactorNeededError } from './two-factor/two-factor.decider';
import { REMEMBER_COOKIE } from './two-factor/two-factor.tokens';
import { TwoFactorService } from './two-factor/two-factor.service';

/** The one answer to forgot-password, whether or not the address has an account. */
export const FORGOT_PASSWORD_ANSWER = 'If an account exists for this address, a password reset email has been sent. Check your inbox.';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly sessions: SessionService,
    private readonly accounts: AccountService,
    private readonly throttle: AuthThrottle,
    private readonly twoFactor: TwoFactorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private setSession(res: Response, token: string) {
    setSessionCookie(res, token, this.config);
  }

  /** Marks this browser as one that signed in to the account (its failed logins are counted apart). */
  private setDevice(res: Response, uid: string, deviceId: string | null) {
    res.cookie(DEVICE_COOKIE, this.throttle.deviceCookie(uid, deviceId), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.cookieSecure,
      path: '/api/auth',
      maxAge: 365 * 86_400_000,
    });
  }

  @Get('csrf')
  csrf(@Req() req: AppRequest) {
    return { token: req.cookies[CSRF_COOKIE] };
  }

  /**
   * Issue 30: the answer (status, body, cookies) and the work done are the same whether or not the address
   * has an account: no 409 tells anyone which addresses are customers. The owner of an existing account is
   * mailed a notice instead; the cookies of that answer open nothing (a token of no session, a device
   * cookie signed for no account).
   */
  @Post('register')
  @HttpCode(201)
  async register(@Body() body: unknown, @Req() req: AppRequest, @Res({ passthrough: true }) res: Response) {
    const { email, password } = parseOrThrow(registerSchema, body);
    // Per IP only, the same for a new and a known address.
    await this.throttle.consume(clientIpOf(req), undefined);
    const ctx = { correlationId: correlationIdOf(req) };
    // the verification mail (new address) or the owner's notice (known address) is requested in the same append (issue 31)
    const { created, token, user } = await this.sessions.register(email, password, ctx, { userAgent: req.headers['user-agent'], ip: clientIpOf(req) }, this.accounts.registrationLinks());
    this.setSession(res, token);
    this.setDevice(res, created ? user.uid : `no-account:${randomBytes(16).toString('hex')}`, null);
    return publicUser(user);
  }

  @Post('login')
  @HttpCode(200)
  async login(@Body() body: unknown, @Req() req: AppRequest, @Res({ passthrough: true }) res: Response) {
    const { email, password } = parseOrThrow(credentialsSchema, body);
    // Judged before the password hash runs (a refused attempt costs no hashing): a browser that signed in
    // to this account before by its own limit only; any other client per account and address, per account
    // across addresses, and per address (a budget apart from register's and forgot-password's).
    const uid = this.sessions.uidFor(email);
    const client = this.throttle.clientOf(uid, clientIpOf(req), req.cookies?.[DEVICE_COOKIE]);
    await this.throttle.beginLogin(email, client);
    // The attempt counts as failed unless it succeeds: a trader who types the password right is never slowed down.
    // With two-factor sign-in on (issue 30), a right password opens no session: 202 "code needed" (POST /auth/2fa/verify).
    const remembered = this.twoFactor.rememberedProof(uid, req.cookies?.[REMEMBER_COOKIE]);
    const signedIn = await this.sessions.login(email, password, { correlationId: correlationIdOf(req) }, { userAgent: req.headers['user-agent'], ip: clientIpOf(req) }, remembered).catch((e) => (e instanceof SecondFactorNeededError ? e : Promise.reject(e)));
    await this.throttle.loginSucceeded(email, client);
    if (signedIn instanceof SecondFactorNeededError) return this.twoFactor.askForCode(res, signedIn);
    const { token, user } = signedIn;
    this.setSession(res, token);
    this.setDevice(res, user.uid, client.deviceId);
    return publicUser(user);
  }

  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body() body: unknown, @Req() req: AppRequest) {
    const { token } = parseOrThrow(verifyEmailSchema, body);
    return publicUser(await this.accounts.verifyEmail(token, { correlationId: correlationIdOf(req) }));
  }

  @Post('resend-verification')
  @HttpCode(202)
  @UseGuards(SessionGuard)
  async resendVerification(@CurrentUser() user: SessionUser, @Req() req: AppRequest) {
    await this.throttle.consume(clientIpOf(req), user.email);
    const sent = await this.accounts.sendVerification(user.uid, { correlationId: correlationIdOf(req) });
    return { message: sent ? 'Verification email sent, check your inbox.' : 'Your email address is already verified.' };
  }

  @Post('forgot-password')
  @HttpCode(202)
  async forgotPassword(@Body() body: unknown, @Req() req: AppRequest) {
    const { email } = parseOrThrow(forgotPasswordSchema, body);
    await this.throttle.consume(clientIpOf(req), email);
    await this.accounts.requestPasswordReset(email, { correlationId: correlationIdOf(req) });
    return { message: FORGOT_PASSWORD_ANSWER };
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(@Body() body: unknown, @Req() req: AppRequest) {
    const { token, password } = parseOrThrow(resetPasswordSchema, body);
    await this.accounts.resetPassword(token, password, { correlationId: correlationIdOf(req) });
    return { message: 'Your password has been changed. Sign in with your new password.' };
  }

  @Post('logout')
  @HttpCode(204)
  @UseGuards(SessionGuard)
  async logout(@CurrentUser() user: SessionUser, @Ctx() ctx: CommandContext, @Res({ passthrough: true }) res: Response) {
    await this.sessions.logout(user, ctx);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  /**
   * The session's user: a personal access token is refused here (issue 32's fuzz found it answered 500:
   * `me` reads the session cookie, which a token request has not), as on the other account routes.
   */
  @Get('me')
  @SessionOnly()
  @UseGuards(SessionGuard)
  async me(@Req() req: AppRequest) {
    const resolved = await this.sessions.resolve(req.cookies?.[SESSION_COOKIE]);
    return publicUser(resolved!.user);
  }
}
