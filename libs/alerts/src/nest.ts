/** The alerts context's Nest entry (`@gridrocket/alerts/nest`): module, controller, dispatcher. */
export * from './alerts.module';
export * from './delivery/alert-dispatcher';
export * from './delivery/alert-dispatcher.metrics';
