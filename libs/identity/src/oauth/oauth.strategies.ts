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

type ProviderEmail = NonNullable<PassportProfile['emails']>[number];

/** What both strategies are given: the app's client at `provider`, its endpoints and the state cookie. */
function clientOf(config: AppConfig, provider: OAuthProvider, client: NonNullable<AppConfig['oauth'][OAuthProvider]>) {
  return {
    clientID: client.clientId,
    clientSecret: client.clientSecret,
    callbackURL: callbackUrl(config, provider),
    authorizationURL: client.authorizationUrl,
    tokenURL: client.tokenUrl,
    store: new CookieStateStore(OAUTH_STATE_COOKIE(provider), config.cookieSecure),
  };
}

/** The verify callback of `provider`: its answer as a ProviderProfile, the email verified as `emailVerified` reads the provider. */
function profileOf(provider: OAuthProvider, emailVerified: (email: ProviderEmail | undefined) => boolean) {
  return (_accessToken: string, _refreshToken: string, profile: PassportProfile, done: Verified): void => {
    const email = profile.emails?.[0];
    done(null, {
      provider,
      subject: String(profile.id),
      email: email?.value ?? null,
      emailVerified: emailVerified(email),
      displayName: profile.displayName ?? '',
      photoURL: profile.photos?.[0]?.value ?? null,
    });
  };
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
    const options = { ...clientOf(config, 'google', google), userProfileURL: google.profileUrl, pkce: 'S256' };
    // Google's userinfo says email_verified (true or "true").
    passport.use('google', new GoogleStrategy(options as unknown as GoogleOptions, profileOf('google', (email) => email?.verified === true || email?.verified === 'true')));
  }
  const facebook = config.oauth.facebook;
  if (facebook) {
    const options = { ...clientOf(config, 'facebook', facebook), profileURL: facebook.profileUrl, profileFields: ['id', 'displayName', 'photos', 'email'], enableProof: true };
    // Facebook only returns an email address its owner has confirmed.
    passport.use('facebook', new FacebookStrategy(options as unknown as FacebookOptions, profileOf('facebook', (email) => Boolean(email?.value))));
  }
  return { passport, providers: { google: Boolean(google), facebook: Boolean(facebook) } };
}
