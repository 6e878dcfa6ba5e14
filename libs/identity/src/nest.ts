/** The identity context's Nest entry (`@gridrocket/identity/nest`): module, sessions, guards, services. */
export * from './identity.module';
export * from './session.service';
export * from './session.guard';
export * from './session-controller';
export * from './account.service';
export * from './auth.throttle';
export * from './mail/mailer.factory';
export * from './csrf.guard';
export * from './two-factor/two-factor.service';
export * from './two-factor/fresh-code.guard';
export * from './reauth/current-password.guard';
export * from './mail/mail-outbox';
export * from './mail/mail-outbox.metrics';
export * from './mail/reset-intake';
export { credentialsSchema, registerSchema, forgotPasswordSchema, verifyEmailSchema, resetPasswordSchema, profileSchema } from './auth.rules';
export * from './access-tokens/access-token.service';
export * from './access-tokens/access-tokens.controller';
export * from './access-tokens/access-token.scope';
