import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { StreamNotFoundError } from '@gridrocket/event-store';
import { AppliedChange } from '@gridrocket/read-store';
import { EventSourcedPorts } from '@gridrocket/read-store/nest';
import { AppConfig, KEYRING_TOKEN, Keyring, executeCommand } from '@gridrocket/shared/runtime';
import { CommandContext, ConflictError, NotFoundError, UnauthorizedError, fold } from '@gridrocket/shared';
import { SessionUser } from '@gridrocket/shared/http';
import { INVALID_CREDENTIALS, userDecider, type LinkRequest } from './domain/user.decider';
import { SignInMethod, UserEvent, userStream } from './domain/user.events';
import { SESSIONS, SessionDoc, USERS, UserDoc } from './identity.projections';
import type { SecondFactorProof } from './two-factor/two-factor.decider';
import { PasswordHasher } from './password.hasher';
import { userIdForEmail } from './user-id';
import { summariseUserAgent } from './sessions/user-agent';

export const SESSION_COOKIE = 'gr_session';

/** Sets the session cookie of a new sign-in: HTTP-only, same-site lax, for the whole site and SESSION_DAYS. */
export function setSessionCookie(res: { cookie(name: string, value: string, options: object): unknown }, token: string, config: AppConfig): void {
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/', maxAge: config.sessionDays * 86_400_000 });
}

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** How long a resolved session is served from memory at most (a second line: its end is seen at once). */
const RECENT_MS = 1_000;
/** Sessions kept in memory at most. */
const RECENT_MAX = 10_000;
/** "Last seen" of a session is recorded (an event) at most this often (issue 30). */
export const SEEN_EVERY_MS = 5 * 60_000;

/** Where a sign-in comes from: the User-Agent header and the client IP (req.ip: TRUST_PROXY decides). */
export interface SignInClient {
  userAgent?: string;
  ip?: string;
}

/** One of the user's sessions as the list of sessions shows it (issue 30). `id` is opaque: never the session id. */
export interface SessionView {
  id: string;
  createdAt: string | null;
  lastSeenAt: string | null;
  browser: string;
  address: string | null;
  current: boolean;
}

/** An address as shown and stored: at most 64 characters (an IPv6 address is at most 45), ::ffff: prefix dropped. */
function addressOf(ip: string | undefined): string | undefined {
  if (!ip) return undefined;
  return ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '').slice(0, 64);
}

/** Registration, sign-in, sign-out and session lookup (event-sourced in `user-<uid>`). */
@Injectable()
export class SessionService implements OnModuleInit, OnModuleDestroy {
  private readonly hasher: PasswordHasher;
  private readonly idKey: Buffer;
  private readonly publicIdKey: Buffer;
  /** Sessions whose "seen" this process recorded, and when (no second command while the first is projected). */
  private readonly seeing = new Map<string, number>();
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
    private readonly ports: EventSourcedPorts,
    @Inject(KEYRING_TOKEN) keyring: Keyring,
  ) {
    this.hasher = new PasswordHasher(keyring);
    this.idKey = keyring.deriveKey('user-id');
    this.publicIdKey = keyring.deriveKey('session-public-id');
    this.keepsRecent = ports.config.projections && ports.config.readStore.kind === 'sqlite';
  }

  onModuleInit() {
    if (this.keepsRecent) this.off = this.ports.projector.onChange((change) => this.forget(change));
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

  /**
   * Registration that does not tell whether the address has an account (issue 30). Both paths do the
   * same expensive work (the password is hashed either way, then one command appended and awaited) and
   * answer alike: a new address gets its account and a session; an address with an account (also one
   * registered a moment ago by a racing request) gets a token that opens nothing, a profile shaped like
   * a new account's, and a `RegistrationAttempted` event on the owner's stream, after which the caller
   * mails the owner a notice (off the request path, as the new account's verification mail is).
   */
  /**
   * `links`: the verification link of a new account and the reset link of an existing one's notice, both
   * requested in the registration's one append, so the mail the answer promises is never lost (issue 31);
   * both are always made (the same work for a new and a known address).
   */
  async register(email: string, password: string, ctx: Omit<CommandContext, 'userId'>, client: SignInClient = {}, links?: { verification: LinkRequest; reset: LinkRequest }): Promise<Registration> {
    const uid = this.uidFor(email);
    const passwordHash = await this.hasher.seal(password, uid);
    const token = randomBytes(32).toString('base64url');
    const session = {
      sessionId: sessionIdOf(token),
      expiresAt: new Date(Date.now() + this.ports.config.sessionDays * 86_400_000).toISOString(),
      browser: summariseUserAgent(client.userAgent),
      address: addressOf(client.ip),
    };
    let position: bigint | null;
    let created = true;
    let notifyOwner = false;
    try {
      // the account and its first session in one append
      position = (await executeCommand(this.ports.events, userStream(uid), userDecider, { type: 'Register', uid, email, passwordHash, session, ...(links ? { verification: links.verification } : {}) }, { ...ctx, userId: uid })).position;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      created = false;
      const noted = await executeCommand(this.ports.events, userStream(uid), userDecider, { type: 'NoteRegistrationAttempt', now: new Date().toISOString(), ...(links ? { reset: links.reset } : {}) }, { ...ctx, userId: uid });
      position = noted.position;
      notifyOwner = noted.events.some((e) => e.type === 'RegistrationAttempted' && e.data.mailed);
    }
    await this.ports.projector.waitFor(position);
    const found = await this.ports.reads.get<UserDoc>(USERS, uid); // read on both paths alike
    if (created) {
      if (!found) throw new UnauthorizedError();
      return { created, token, user: found, notifyOwner };
    }
    // as a new account looks (users projection, UserRegistered): nothing of the real account shows
    const user: UserDoc = { id: uid, uid, email, displayName: '', emailVerified: false, photoURL: null };
    return { created, token: randomBytes(32).toString('base64url'), user, notifyOwner };
  }

  /** `client`: the browser and address shown in the sessions list; `secondFactor`: a remembered browser's proof, when it has one (with 2FA on and none, SecondFactorNeededError). */
  async login(email: string, password: string, ctx: Omit<CommandContext, 'userId'>, client: SignInClient = {}, secondFactor?: SecondFactorProof | null): Promise<{ token: string; user: UserDoc }> {
    const uid = this.uidFor(email);
    const state = await this.loadUser(uid);
    const checked = state?.passwordHash ?? null;
    const ok = await this.hasher.verify(checked, password, uid);
    if (!ok) throw new UnauthorizedError(INVALID_CREDENTIALS);
    // The decider refuses the sign-in if the password changed while it was being checked.
    return this.openSession(uid, 'password', ctx, checked, client, secondFactor);
  }

  async openSession(uid: string, method: SignInMethod, ctx: Omit<CommandContext, 'userId'>, checkedPasswordHash?: string | null, client: SignInClient = {}, secondFactor?: SecondFactorProof | null, pendingSignIn?: string) {
    const token = randomBytes(32).toString('base64url');
    const sessionId = sessionIdOf(token);
    const expiresAt = new Date(Date.now() + this.ports.config.sessionDays * 86_400_000).toISOString();
    const r = await executeCommand(
      this.ports.events,
      userStream(uid),
      userDecider,
      // QUOTA_SESSIONS is decided on the user's stream (issue 28), not counted on the read model
      {
        type: 'SignIn',
        sessionId,
        expiresAt,
        method,
        checkedPasswordHash,
        maxSessions: this.ports.config.quotas.sessions,
        now: new Date().toISOString(),
        browser: summariseUserAgent(client.userAgent),
        address: addressOf(client.ip),
        secondFactor,
        ...(pendingSignIn ? { pendingSignIn } : {}),
      },
      { ...ctx, userId: uid },
    );
    await this.ports.projector.waitFor(r.position);
    const user = await this.ports.reads.get<UserDoc>(USERS, uid);
    if (!user) throw new UnauthorizedError();
    return { token, user };
  }

  async logout(user: SessionUser, ctx: CommandContext): Promise<void> {
    const r = await executeCommand(this.ports.events, userStream(user.uid), userDecider, { type: 'SignOut', sessionId: user.sessionId }, ctx);
    await this.ports.projector.waitFor(r.position);
  }

  // ---- the user's sessions (issue 30) ------------------------------------------------------------

  /** The opaque id a session is shown by: a keyed digest of the session id (itself a digest of the token). */
  publicIdOf(sessionId: string): string {
    return createHmac('sha256', this.publicIdKey).update(sessionId).digest('base64url').slice(0, 22);
  }

  private async liveSessionsOf(uid: string): Promise<SessionDoc[]> {
    const now = Date.now();
    const docs = await this.ports.reads.find<SessionDoc>(SESSIONS, { uid });
    return docs.filter((d) => Date.parse(d.expiresAt) > now);
  }

  /** The user's live sessions, the current one first, then the most recently seen. */
  async listSessions(user: SessionUser): Promise<SessionView[]> {
    const docs = await this.liveSessionsOf(user.uid);
    const views = docs.map((d) => ({
      id: this.publicIdOf(d.id),
      createdAt: d.createdAt ?? null,
      lastSeenAt: d.lastSeenAt ?? d.createdAt ?? null,
      browser: d.browser ?? 'Unknown browser',
      address: d.address ?? null,
      current: d.id === user.sessionId,
    }));
    return views.sort((a, b) => Number(b.current) - Number(a.current) || (b.lastSeenAt ?? '').localeCompare(a.lastSeenAt ?? ''));
  }

  /** Ends one of the user's sessions by its public id; 404 for any other id (another user's included: never told apart). */
  async signOutSession(user: SessionUser, publicId: string, ctx: CommandContext): Promise<void> {
    const doc = /^[A-Za-z0-9_-]{22}$/.test(publicId) ? (await this.liveSessionsOf(user.uid)).find((d) => this.publicIdOf(d.id) === publicId) : undefined;
    if (!doc) throw new NotFoundError('No such session');
    const reason = doc.id === user.sessionId ? 'logout' : 'revoked';
    const r = await executeCommand(this.ports.events, userStream(user.uid), userDecider, { type: 'SignOut', sessionId: doc.id, reason }, ctx);
    await this.ports.projector.waitFor(r.position);
  }

  /** "Sign out everywhere": every other session of the user ends (their sockets with them). Returns how many. */
  async signOutOthers(user: SessionUser, ctx: CommandContext): Promise<number> {
    const r = await executeCommand(this.ports.events, userStream(user.uid), userDecider, { type: 'SignOutOthers', keep: user.sessionId, now: new Date().toISOString() }, ctx);
    await this.ports.projector.waitFor(r.position);
    return r.events.filter((e) => e.type === 'UserSignedOut').length;
  }

  /**
   * Notes that a session was used, from this address: an event at most every SEEN_EVERY_MS per session
   * (its document says when it was last recorded), in the background: a request never waits for it.
   */
  noteSeen(resolved: ResolvedSession, ip: string | undefined): void {
    const { sessionId, uid } = resolved.session;
    const now = Date.now();
    if (now - (resolved.lastSeenAt ?? 0) < SEEN_EVERY_MS || now - (this.seeing.get(sessionId) ?? 0) < SEEN_EVERY_MS) return;
    this.seeing.delete(sessionId);
    if (this.seeing.size >= RECENT_MAX) this.seeing.delete(this.seeing.keys().next().value as string);
    this.seeing.set(sessionId, now);
    const address = addressOf(ip);
    executeCommand(this.ports.events, userStream(uid), userDecider, { type: 'RecordSessionSeen', sessionId, address }, { userId: uid, correlationId: `seen-${randomBytes(6).toString('hex')}` }).catch(
      () => this.seeing.delete(sessionId), // a lost "last seen" is no error of the request; the next request tries again
    );
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
    const session = await this.ports.reads.get<SessionDoc>(SESSIONS, sessionId);
    const expiresAt = session ? Date.parse(session.expiresAt) : 0;
    if (!session || expiresAt <= Date.now()) return null;
    const user = await this.ports.reads.get<UserDoc>(USERS, session.uid);
    if (!user) return null;
    const resolved = {
      session: { uid: user.uid, email: user.email, sessionId, emailVerified: user.emailVerified === true, ...(session.createdAt ? { signedInAt: Date.parse(session.createdAt) } : {}) },
      user,
      expiresAt,
      lastSeenAt: Date.parse(session.lastSeenAt ?? session.createdAt ?? '') || undefined,
    };
    // what was read while the projector applied a session or user change is not kept: it may be the old value
    if (this.keepsRecent && this.changes === seen) {
      this.recent.delete(sessionId);
      if (this.recent.size >= RECENT_MAX) this.recent.delete(this.recent.keys().next().value as string);
      this.recent.set(sessionId, { resolved, at: now });
    }
    return { ...resolved, session: { ...resolved.session } };
  }

  /** Whether `password` is the account's current password (issue 38: what a session thief lacks). */
  async checkPassword(uid: string, password: string): Promise<boolean> {
    const state = await this.loadUser(uid);
    return this.hasher.verify(state?.passwordHash ?? null, password, uid);
  }

  /** Whether the account has a password at all (one made through Google or Facebook may not). */
  async hasPassword(uid: string): Promise<boolean> {
    return Boolean((await this.loadUser(uid))?.passwordHash);
  }

  /** Seals a password hash for storage in an event (argon2id, then AES-GCM under the master key). */
  sealPassword(password: string, uid: string): Promise<string> {
    return this.hasher.seal(password, uid);
  }

  async loadUser(uid: string) {
    try {
      const events = await this.ports.events.readStream(userStream(uid));
      return fold(userDecider, events.map((e) => ({ type: e.type, data: e.data }) as UserEvent));
    } catch (err) {
      if (err instanceof StreamNotFoundError) return null;
      throw err;
    }
  }
}

/** What registering answers; `created` false: the address had an account (the token opens nothing). */
export interface Registration {
  created: boolean;
  token: string;
  user: UserDoc;
  /** The address had an account and its owner is to be mailed (at most hourly). */
  notifyOwner: boolean;
}

/** A live session: its user, and when it expires (ms since the epoch). */
export interface ResolvedSession {
  session: SessionUser;
  user: UserDoc;
  expiresAt: number;
  /** When the session was last recorded as seen (ms; undefined for a session from before issue 30). */
  lastSeenAt?: number;
}

export function publicUser(user: UserDoc) {
  return { uid: user.uid, displayName: user.displayName, email: user.email, emailVerified: user.emailVerified, photoURL: user.photoURL };
}
