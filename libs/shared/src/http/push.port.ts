/** Pushes a message to every socket of one user (their room). */
export interface PushPort {
  toUser(uid: string, event: string, payload: unknown): void;
}
export const PUSH = Symbol('PUSH');
