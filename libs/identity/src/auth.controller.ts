import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CommandContext } from '@gridrocket/shared';
import { AppRequest, Ctx, CurrentUser, SessionUser, correlationIdOf } from '@gridrocket/shared/http';
import { credentialsSchema, parseOrThrow } from './auth.rules';
import { CSRF_COOKIE } from './csrf.middleware';
import { SessionGuard } from './session.guard';
import { SESSION_COOKIE, SessionService, publicUser } from './session.service';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private setSession(res: Response, token: string) {
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.cookieSecure,
      path: '/',
      maxAge: this.config.sessionDays * 86_400_000,
    });
  }

  @Get('csrf')
  csrf(@Req() req: AppRequest) {
    return { token: req.cookies[CSRF_COOKIE] };
  }

  @Post('register')
  @HttpCode(201)
  async register(@Body() body: unknown, @Req() req: AppRequest, @Res({ passthrough: true }) res: Response) {
    const { email, password } = parseOrThrow(credentialsSchema, body);
    const { token, user } = await this.sessions.register(email, password, { correlationId: correlationIdOf(req) });
    this.setSession(res, token);
    return publicUser(user);
  }

  @Post('login')
  @HttpCode(200)
  async login(@Body() body: unknown, @Req() req: AppRequest, @Res({ passthrough: true }) res: Response) {
    const { email, password } = parseOrThrow(credentialsSchema, body);
    const { token, user } = await this.sessions.login(email, password, { correlationId: correlationIdOf(req) });
    this.setSession(res, token);
    return publicUser(user);
  }

  @Post('logout')
  @HttpCode(204)
  @UseGuards(SessionGuard)
  async logout(@CurrentUser() user: SessionUser, @Ctx() ctx: CommandContext, @Res({ passthrough: true }) res: Response) {
    await this.sessions.logout(user, ctx);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  @Get('me')
  @UseGuards(SessionGuard)
  async me(@Req() req: AppRequest) {
    const resolved = await this.sessions.resolve(req.cookies?.[SESSION_COOKIE]);
    return publicUser(resolved!.user);
  }
}
