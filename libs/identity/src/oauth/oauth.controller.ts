import { Controller, Get, Inject, Logger, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { AppError, correlated } from '@gridrocket/shared';
import { AppRequest, correlationIdOf, clientIpOf } from '@gridrocket/shared/http';
import { AccountService, PROVIDER_LABEL, ProviderProfile } from '../account.service';
import type { OAuthProvider } from '../domain/user.events';
import { setSessionCookie } from '../session.service';
import { SecondFactorNeededError } from '../two-factor/two-factor.decider';
import { REMEMBER_COOKIE } from '../two-factor/two-factor.tokens';
import { TwoFactorService } from '../two-factor/two-factor.service';
import { AUTHORIZE_OPTIONS, createPassport } from './oauth.strategies';
import { popupPage } from './popup-page';

const OAUTH_PROVIDERS: OAuthProvider[] = ['google', 'facebook'];

/** The provider of the route `req` came by: `<provider>` or `<provider>/callback`. */
const providerOf = (req: AppRequest): OAuthProvider => {
  const segments = String(req.route?.path ?? req.path).split('/');
  return OAUTH_PROVIDERS.find((provider) => segments.includes(provider)) as OAuthProvider;
};

/**
 * Google and Facebook sign-in, run in a popup: `GET /api/auth/<provider>`
 * redirects to the provider, the provider comes back to `/callback`, which
 * signs the user in (session cookie) and answers a page that posts
 * `{type:'gridrocket:auth', ok, error?}` to the opener and closes.
 * Every outcome is such a page, never a JSON error or a 404.
 */
@ApiTags('auth')
@Controller('auth')
export class OAuthController {
  private readonly logger = new Logger('OAuth');
  private readonly passport;
  private readonly configured: Record<OAuthProvider, boolean>;

  constructor(
    private readonly accounts: AccountService,
    private readonly twoFactor: TwoFactorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const { passport, providers } = createPassport(config);
    this.passport = passport;
    this.configured = providers;
  }

  @Get(OAUTH_PROVIDERS)
  @ApiExcludeEndpoint()
  begin(@Req() req: AppRequest, @Res() res: Response) {
    this.start(providerOf(req), req, res);
  }

  @Get(OAUTH_PROVIDERS.map((provider) => `${provider}/callback`))
  @ApiExcludeEndpoint()
  providerCallback(@Req() req: AppRequest, @Res() res: Response) {
    return this.callback(providerOf(req), req, res);
  }

  private start(provider: OAuthProvider, req: AppRequest, res: Response) {
    if (!this.configured[provider]) return this.page(res, { ok: false, error: `${PROVIDER_LABEL[provider]} sign-in is not configured` });
    res.setHeader('Cache-Control', 'no-store');
    this.passport.authenticate(provider, AUTHORIZE_OPTIONS[provider], (err: Error | null) => {
      this.logger.warn(correlated(`${PROVIDER_LABEL[provider]} sign-in could not start: ${err?.message}`, correlationIdOf(req)));
      this.page(res, { ok: false, error: `${PROVIDER_LABEL[provider]} sign-in could not start, please try again` });
    })(req, res, () => undefined);
  }

  private callback(provider: OAuthProvider, req: AppRequest, res: Response): Promise<void> {
    const label = PROVIDER_LABEL[provider];
    if (!this.configured[provider]) return Promise.resolve(this.page(res, { ok: false, error: `${label} sign-in is not configured` }));
    return new Promise<void>((resolve) => {
      const finish = (outcome: { ok: boolean; error?: string; twoFactorRequired?: boolean }) => {
        this.page(res, outcome);
        resolve();
      };
      this.passport.authenticate(provider, { session: false }, async (err: Error | null, profile: ProviderProfile | false) => {
        const query = req.query as Record<string, unknown>;
        if (query.error === 'access_denied' || query.error_reason === 'user_denied') {
          return finish({ ok: false, error: `${label} sign-in was cancelled: you did not allow GridRocket to use your ${label} account` });
        }
        if (err || !profile) {
          if (err) this.logger.warn(correlated(`${label} sign-in failed: ${err.message}`, correlationIdOf(req)));
          return finish({ ok: false, error: `${label} sign-in failed, please try again` });
        }
        try {
          const remembered = (uid: string) => this.twoFactor.rememberedProof(uid, req.cookies?.[REMEMBER_COOKIE]);
          const signedIn = await this.accounts.signInWithProvider(profile, { correlationId: correlationIdOf(req) }, { userAgent: req.headers['user-agent'], ip: clientIpOf(req) }, remembered).catch((e) => (e instanceof SecondFactorNeededError ? e : Promise.reject(e)));
          if (signedIn instanceof SecondFactorNeededError) {
            // two-factor sign-in is on (issue 30): the dashboard asks for the code (POST /api/auth/2fa/verify)
            this.twoFactor.askForCode(res, signedIn);
            return finish({ ok: false, twoFactorRequired: true });
          }
          const { token } = signedIn;
          setSessionCookie(res, token, this.config);
          finish({ ok: true });
        } catch (e) {
          if (!(e instanceof AppError)) this.logger.error(correlated(`${label} sign-in failed: ${(e as Error).stack}`, correlationIdOf(req)));
          finish({ ok: false, error: e instanceof AppError && e.status < 500 ? e.message : `${label} sign-in failed, please try again` });
        }
      })(req, res, () => undefined);
    });
  }

  private page(res: Response, outcome: { ok: boolean; error?: string; twoFactorRequired?: boolean }): void {
    if (res.headersSent) return;
    const nonce = randomBytes(16).toString('base64');
    res
      .status(200)
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(popupPage(outcome, this.config.publicUrl, nonce));
  }
}
