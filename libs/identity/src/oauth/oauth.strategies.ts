import { Passport } from 'passport';
import { Strategy as FacebookStrategy, StrategyOptions as FacebookOptions } from 'passport-facebook';
import { Strategy as GoogleStrategy, StrategyOptions as GoogleOptions } from 'passport-google-oauth20';
import type { AppConfig } from '@gridrocket/shared/runtime';
import type { OAuthProvider } from '../domain/user.events';
import type { ProviderProfile } from '../account.service';
import { CookieStateStore } from './cookie-state.store';

export const OAUTH_STATE_COOKIE = (provider: OAuthProvider) => `gr_oauth_${provider}`;
export const callbackUrl = (config: AppConfig, provider: OAuthProvider) => `${config.publicUrl}/api/auth/${provider}/callback`;

/** Options passed to `authenticate` when the popup starts. */
export const AUTHORIZE_OPTIONS: Record<OAuthProvider, Record<string, unknown>> = {
  google: { scope: ['openid', 'email', 'profile'], prompt: 'select_account', session: false },
  facebook: { scope: ['email', 'public_profile'], display: 'popup', session: false },
};

type Verified = (err: Error | null, user?: ProviderProfile | false) => void;

interface PassportProfile {
  id: string;
  displayName?: string;
  emails?: { value: string; verified?: boolean | string }[];
  photos?: { value: string }[];
}

/**
 * A private passport instance with the configured providers (none when no
 * client id is set). The strategies only turn a provider's answer into a
 * ProviderProfile; who that is in GridRocket is AccountService's decision.
 * Provider access tokens are not kept.
 */
export function createPassport(config: AppConfig): { passport: InstanceType<typeof Passport>; providers: Record<OAuthProvider, boolean> } {
  const passport = new Passport();
  const google = config.oauth.google;
  if (google) {
    passport.use(
      'google',
      new GoogleStrategy(
        {
          clientID: google.clientId,
          clientSecret: google.clientSecret,
          callbackURL: callbackUrl(config, 'google'),
          authorizationURL: google.authorizationUrl,
          tokenURL: google.tokenUrl,
          userProfileURL: google.profileUrl,
          store: new CookieStateStore(OAUTH_STATE_COOKIE('google'), config.cookieSecure),
          pkce: 'S256',
        } as unknown as GoogleOptions,
        (_accessToken: string, _refreshToken: string, profile: PassportProfile, done: Verified): void => {
          const email = profile.emails?.[0];
          done(null, {
            provider: 'google',
            subject: String(profile.id),
            email: email?.value ?? null,
            // Google's userinfo says email_verified (true or "true").
            emailVerified: email?.verified === true || email?.verified === 'true',
            displayName: profile.displayName ?? '',
            photoURL: profile.photos?.[0]?.value ?? null,
          });
        },
      ),
    );
  }
  const facebook = config.oauth.facebook;
  if (facebook) {
    passport.use(
      'facebook',
      new FacebookStrategy(
        {
          clientID: facebook.clientId,
          clientSecret: facebook.clientSecret,
          callbackURL: callbackUrl(config, 'facebook'),
          authorizationURL: facebook.authorizationUrl,
          tokenURL: facebook.tokenUrl,
          profileURL: facebook.profileUrl,
          profileFields: ['id', 'displayName', 'photos', 'email'],
          enableProof: true,
          store: new CookieStateStore(OAUTH_STATE_COOKIE('facebook'), config.cookieSecure),
        } as unknown as FacebookOptions,
        (_accessToken: string, _refreshToken: string, profile: PassportProfile, done: Verified): void => {
          const email = profile.emails?.[0];
          done(null, {
            provider: 'facebook',
            subject: String(profile.id),
            email: email?.value ?? null,
            // Facebook only returns an email address its owner has confirmed.
            emailVerified: Boolean(email?.value),
            displayName: profile.displayName ?? '',
            photoURL: profile.photos?.[0]?.value ?? null,
          });
        },
      ),
    );
  }
  return { passport, providers: { google: Boolean(google), facebook: Boolean(facebook) } };
}
