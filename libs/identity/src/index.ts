/** The identity context without Nest: domain, projections, ids, tokens, CSRF, the mail port. Nest wiring: ./nest.ts. */
export * from './identity.projections';
export * from './user-id';
export * from './domain/user.events';
export * from './domain/user.decider';
export * from './csrf.middleware';
export * from './link-tokens';
export * from './mail/mail.port';
export * from './oauth/popup-page';
export * from './abuse/doc-cas';
export * from './abuse/throttle.rules';
export * from './two-factor/totp';
export * from './two-factor/two-factor.events';
export * from './two-factor/two-factor.decider';
export * from './two-factor/two-factor.tokens';
export * from './access-tokens/access-token.decider';
export * from './access-tokens/access-token.projection';
