/** The read side's Nest entry (`@gridrocket/read-store/nest`): the ports an event-sourced service is given. */
export * from './event-sourced-ports';
