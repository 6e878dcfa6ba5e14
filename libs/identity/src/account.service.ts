import { Inject, Injectable } from '@nestjs/common';
import { EventSourcedPorts } from '@gridrocket/read-store/nest';
import { KEYRING_TOKEN, Keyring, executeCommand } from '@gridrocket/shared/runtime';
import { CommandContext, ConflictError, correlated, NotFoundError, UnauthorizedError, ValidationError } from '@gridrocket/shared';
import { RESET_LINK_INVALID, UserCommand, VERIFY_LINK_INVALID, userDecider, type LinkRequest } from './domain/user.decider';
import { OAuthProvider, PasswordResetReason, userStream } from './domain/user.events';
import { USERS, USER_TOKENS, UserDoc, UserTokenDoc } from './identity.projections';
import { LINK_TOKEN_PATTERN, LinkTokens, linkTokensOf } from './link-tokens';
import { SessionService, SignInClient } from './session.service';
import { recordResetAsk } from './mail/reset-intake';
import type { SecondFactorProof } from './two-factor/two-factor.decider';

type Ctx = Omit<CommandContext, 'userId'>;

/** What a provider (Google, Facebook) tells us about the person signing in. */
export interface ProviderProfile {
  provider: OAuthProvider;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string;
  photoURL: string | null;
}

export const PROVIDER_LABEL: Record<OAuthProvider, string> = { google: 'Google', facebook: 'Facebook' };

/**
 * Email verification, password reset, profile and provider sign-in: the
 * account's life after registration, all as commands on `user-<uid>`.
 */
@Injectable()
export class AccountService {
  private readonly tokens: LinkTokens;

  constructor(
    private readonly ports: EventSourcedPorts,
    @Inject(KEYRING_TOKEN) keyring: Keyring,
    private readonly sessions: SessionService,
  ) {
    this.tokens = linkTokensOf(keyring);
  }

  private async run(uid: string, command: UserCommand, ctx: Ctx) {
    const r = await executeCommand(this.ports.events, userStream(uid), userDecider, command, { ...ctx, userId: uid });
    await this.ports.projector.waitFor(r.position);
    return r;
  }

  private async user(uid: string): Promise<UserDoc> {
    const user = await this.ports.reads.get<UserDoc>(USERS, uid);
    if (!user) throw new NotFoundError('No such user');
    return user;
  }

  // ---- email verification -------------------------------------------------

  /**
   * Asks for a fresh verification mail; the previous link dies. Returns false when the address is already
   * verified. The mail itself is sent by the mail outbox (mail/mail-outbox.ts) from the event written here,
   * with retries until the mail server takes it: once this returns, the mail is not lost.
   */
  async sendVerification(uid: string, ctx: Ctx): Promise<boolean> {
    const { digest, seed } = this.tokens.issueSeeded();
    const ttl = this.ports.config.tokenTtl.verifyEmailSeconds;
    const expiresAt = new Date(Date.now() + ttl * 1000).toISOString();
    const r = await this.run(uid, { type: 'RequestEmailVerification', tokenDigest: digest, expiresAt, tokenSeed: seed }, ctx);
    return r.events.length > 0;
  }

  /**
   * The links a registration requests in its own append (issue 31: the mail its answer promises is then
   * never lost): a new account's verification link, and the reset link of the notice an existing
   * address's owner gets (issue 30). Both are made every time: a new and a known address cost the same.
   */
  registrationLinks(): { verification: LinkRequest; reset: LinkRequest } {
    const link = (ttlSeconds: number): LinkRequest => {
      const { digest, seed } = this.tokens.issueSeeded();
      return { tokenDigest: digest, expiresAt: new Date(Date.now() + ttlSeconds * 1000).toISOString(), tokenSeed: seed };
    };
    return { verification: link(this.ports.config.tokenTtl.verifyEmailSeconds), reset: link(this.ports.config.tokenTtl.resetPasswordSeconds) };
  }

  private async requestReset(uid: string, reason: PasswordResetReason, ctx: Ctx): Promise<void> {
    const { digest, seed } = this.tokens.issueSeeded();
    const ttl = this.ports.config.tokenTtl.resetPasswordSeconds;
    const expiresAt = new Date(Date.now() + ttl * 1000).toISOString();
    await this.run(uid, { type: 'RequestPasswordReset', tokenDigest: digest, expiresAt, tokenSeed: seed, reason }, ctx);
  }

  async verifyEmail(token: string, ctx: Ctx): Promise<UserDoc> {
    const found = await this.lookup(token, 'verify-email', VERIFY_LINK_INVALID);
    await this.run(found.uid, { type: 'VerifyEmail', tokenDigest: found.id, now: new Date().toISOString() }, ctx);
    return this.user(found.uid);
  }

  // ---- password reset -----------------------------------------------------

  /**
   * Records the ask and returns: one append to the intake stream for every address, known or not (its
   * keyed id, not the address), so neither the answer nor its timing tells whether the address has an
   * account; the reset link and its mail follow from the recorded ask (mail/reset-intake.ts, the outbox).
   * Once this returns, the mail is not lost, not even to a kill -9 right after the 202.
   */
  async requestPasswordReset(email: string, ctx: Ctx): Promise<void> {
    await recordResetAsk(this.ports.events, this.sessions.uidFor(email), ctx);
  }

  async resetPassword(token: string, password: string, ctx: Ctx): Promise<void> {
    const found = await this.lookup(token, 'reset-password', RESET_LINK_INVALID);
    const passwordHash = await this.sessions.sealPassword(password, found.uid);
    await this.run(found.uid, { type: 'ResetPassword', tokenDigest: found.id, passwordHash, now: new Date().toISOString() }, ctx);
  }

  private async lookup(token: string, purpose: UserTokenDoc['purpose'], invalid: string): Promise<UserTokenDoc> {
    const doc = LINK_TOKEN_PATTERN.test(token) ? await this.ports.reads.get<UserTokenDoc>(USER_TOKENS, this.tokens.digest(token)) : null;
    if (!doc || doc.purpose !== purpose) throw new ValidationError([{ field: 'token', message: invalid }], invalid);
    return doc;
  }

  // ---- profile -------------------------------------------------------------

  async updateProfile(uid: string, profile: { displayName: string; photoURL?: string | null }, ctx: Ctx): Promise<UserDoc> {
    await this.run(uid, { type: 'UpdateProfile', ...profile }, ctx);
    return this.user(uid);
  }

  // ---- Google and Facebook -------------------------------------------------

  /**
   * Signs a provider account in: into the user whose address the provider
   * vouches for (linking it), or into a new user with the provider's name and
   * photo. Returns a new session.
   */
  async signInWithProvider(profile: ProviderProfile, ctx: Ctx, client: SignInClient = {}, secondFactor?: (uid: string) => SecondFactorProof | null): Promise<{ token: string; user: UserDoc }> {
    const label = PROVIDER_LABEL[profile.provider];
    const email = profile.email?.trim().toLowerCase() ?? '';
    if (!email || email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw new UnauthorizedError(`Your ${label} account did not share an email address`);
    }
    const uid = this.sessions.uidFor(email);
    const identity = { provider: profile.provider, subject: profile.subject, emailVerified: profile.emailVerified };
    const existing = await this.sessions.loadUser(uid);
    if (!existing?.exists) {
      try {
        await this.run(
          uid,
          {
            type: 'Register',
            uid,
            email,
            passwordHash: null,
            displayName: profile.displayName.trim().slice(0, 100),
            photoURL: safePhoto(profile.photoURL),
            provider: identity,
          },
          ctx,
        );
      } catch (err) {
        // Registered meanwhile (another tab, the password form): link instead.
        if (!(err instanceof ConflictError)) throw err;
        await this.run(uid, { type: 'LinkProvider', ...identity, now: new Date().toISOString() }, ctx);
      }
    } else {
      await this.run(uid, { type: 'LinkProvider', ...identity, now: new Date().toISOString() }, ctx);
    }
    // with 2FA on and no remembered browser: SecondFactorNeededError, the caller asks for the code (issue 30)
    return this.sessions.openSession(uid, profile.provider, ctx, undefined, client, secondFactor?.(uid));
  }

}

function safePhoto(url: string | null): string | null {
  if (!url || url.length > 2048) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}
