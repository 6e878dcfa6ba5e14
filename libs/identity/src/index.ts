export * from './identity.module';
export * from './session.service';
export * from './session.guard';
export * from './csrf.middleware';
export * from './identity.projections';
export * from './user-id';
export * from './domain/user.events';
export * from './domain/user.decider';
