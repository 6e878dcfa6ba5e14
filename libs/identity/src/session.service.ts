import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { EVENT_STORE, EventStore, StreamNotFoundError } from '@gridrocket/event-store';
import { AppliedChange, Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring, executeCommand } from '@gridrocket/shared/runtime';
import { CommandContext, UnauthorizedError, fold } from '@gridrocket/shared';
import { SessionUser } from '@gridrocket/shared/http';
import { INVALID_CREDENTIALS, userDecider } from './domain/user.decider';
import { SignInMethod, UserEvent, userStream } from './domain/user.events';
import { SESSIONS, SessionDoc, USERS, UserDoc } from './identity.projections';
import type { SecondFactorProof } from './two-factor/two-factor.decider';
import { PasswordHasher } from './password.hasher';
import { userIdForEmail } from './user-id';

export const SESSION_COOKIE = 'gr_session';

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** How long a resolved session is served from memory at most (a second line: its end is seen at once). */
const RECENT_MS = 1_000;
/** Sessions kept in memory at most. */
const RECENT_MAX = 10_000;

/** Registration, sign-in, sign-out and session lookup (event-sourced in `user-<uid>`). */
@Injectable()
export class SessionService implements OnModuleInit, OnModuleDestroy {
  private readonly hasher: PasswordHasher;
  private readonly idKey: Buffer;
  /**
   * Sessions resolved in the last RECENT_MS (issue 16: two read-store reads on every request). Only while
   * this process runs the projections on the embedded read store, which no other process writes: every
   * change of a session or user document is then applied here, and drops what it changes from memory
   * as soon as it is committed (`forget`), so an ended session is refused on the next request as before.
   */
  private readonly recent = new Map<string, { resolved: ResolvedSession; at: number }>();
  private readonly keepsRecent: boolean;
  /** Session and user changes applied so far: a read during which one was applied is not kept. */
  private changes = 0;
  private off: (() => void) | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(KEYRING_TOKEN) keyring: Keyring,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projector: Projector,
  ) {
    this.hasher = new PasswordHasher(keyring);
    this.idKey = keyring.deriveKey('user-id');
    this.keepsRecent = config.projections && config.readStore.kind === 'sqlite';
  }

  onModuleInit() {
    if (this.keepsRecent) this.off = this.projector.onChange((change) => this.forget(change));
  }

  onModuleDestroy() {
    this.off?.();
  }

  /** A session or user document changed: whatever memory holds of it is dropped. */
  private forget(change: AppliedChange) {
    if (change.projection === 'sessions' || change.projection === 'users') this.changes++;
    if (change.projection === 'sessions') this.recent.delete(change.id);
    else if (change.projection === 'users') {
      for (const [id, r] of this.recent) if (r.resolved.session.uid === change.id) this.recent.delete(id);
    }
  }

  uidFor(email: string): string {
    return userIdForEmail(email, this.idKey);
  }

  async register(email: string, password: string, ctx: Omit<CommandContext, 'userId'>): Promise<{ token: string; user: UserDoc }> {
    const uid = this.uidFor(email);
    const passwordHash = await this.hasher.seal(password, uid);
    await executeCommand(this.events, userStream(uid), userDecider, { type: 'Register', uid, email, passwordHash }, { ...ctx, userId: uid });
    return this.openSession(uid, 'password', ctx, passwordHash);
  }

  /** `secondFactor`: a remembered browser's proof, when it has one (with 2FA on and none, SecondFactorNeededError). */
  async login(email: string, password: string, ctx: Omit<CommandContext, 'userId'>, secondFactor?: SecondFactorProof | null): Promise<{ token: string; user: UserDoc }> {
    const uid = this.uidFor(email);
    const state = await this.loadUser(uid);
    const checked = state?.passwordHash ?? null;
    const ok = await this.hasher.verify(checked, password, uid);
    if (!ok) throw new UnauthorizedError(INVALID_CREDENTIALS);
    // The decider refuses the sign-in if the password changed while it was being checked.
    return this.openSession(uid, 'password', ctx, checked, secondFactor);
  }

  async openSession(uid: string, method: SignInMethod, ctx: Omit<CommandContext, 'userId'>, checkedPasswordHash?: string | null, secondFactor?: SecondFactorProof | null) {
    const token = randomBytes(32).toString('base64url');
    const sessionId = sessionIdOf(token);
    const expiresAt = new Date(Date.now() + this.config.sessionDays * 86_400_000).toISOString();
    const r = await executeCommand(
      this.events,
      userStream(uid),
      userDecider,
      // QUOTA_SESSIONS is decided on the user's stream (issue 28), not counted on the read model
      { type: 'SignIn', sessionId, expiresAt, method, checkedPasswordHash, maxSessions: this.config.quotas.sessions, now: new Date().toISOString(), secondFactor },
      { ...ctx, userId: uid },
    );
    await this.projector.waitFor(r.position);
    const user = await this.reads.get<UserDoc>(USERS, uid);
    if (!user) throw new UnauthorizedError();
    return { token, user };
  }

  async logout(user: SessionUser, ctx: CommandContext): Promise<void> {
    const r = await executeCommand(this.events, userStream(user.uid), userDecider, { type: 'SignOut', sessionId: user.sessionId }, ctx);
    await this.projector.waitFor(r.position);
  }

  /** The user behind a session token, or null when the session is unknown, ended or expired. */
  async resolve(token: string | undefined): Promise<ResolvedSession | null> {
    if (!token || token.length > 200) return null;
    return this.resolveId(sessionIdOf(token));
  }

  /**
   * The same, by session id (the token's digest): sockets re-check their session with it before each
   * push. `fresh`: read from the store even when the session was resolved moments ago.
   */
  async resolveId(sessionId: string, options: { fresh?: boolean } = {}): Promise<ResolvedSession | null> {
    const now = Date.now();
    if (this.keepsRecent && !options.fresh) {
      const hit = this.recent.get(sessionId);
      if (hit && now - hit.at < RECENT_MS && hit.resolved.expiresAt > now) return { ...hit.resolved, session: { ...hit.resolved.session } };
    }
    const seen = this.changes;
    const session = await this.reads.get<SessionDoc>(SESSIONS, sessionId);
    const expiresAt = session ? Date.parse(session.expiresAt) : 0;
    if (!session || expiresAt <= Date.now()) return null;
    const user = await this.reads.get<UserDoc>(USERS, session.uid);
    if (!user) return null;
    const resolved = { session: { uid: user.uid, email: user.email, sessionId, emailVerified: user.emailVerified === true }, user, expiresAt };
    // what was read while the projector applied a session or user change is not kept: it may be the old value
    if (this.keepsRecent && this.changes === seen) {
      this.recent.delete(sessionId);
      if (this.recent.size >= RECENT_MAX) this.recent.delete(this.recent.keys().next().value as string);
      this.recent.set(sessionId, { resolved, at: now });
    }
    return { ...resolved, session: { ...resolved.session } };
  }

  /** Seals a password hash for storage in an event (argon2id, then AES-GCM under the master key). */
  sealPassword(password: string, uid: string): Promise<string> {
    return this.hasher.seal(password, uid);
  }

  async loadUser(uid: string) {
    try {
      const events = await this.events.readStream(userStream(uid));
      return fold(userDecider, events.map((e) => ({ type: e.type, data: e.data }) as UserEvent));
    } catch (err) {
      if (err instanceof StreamNotFoundError) return null;
      throw err;
    }
  }
}

/** A live session: its user, and when it expires (ms since the epoch). */
export interface ResolvedSession {
  session: SessionUser;
  user: UserDoc;
  expiresAt: number;
}

export function publicUser(user: UserDoc) {
  return { uid: user.uid, displayName: user.displayName, email: user.email, emailVerified: user.emailVerified, photoURL: user.photoURL };
}
