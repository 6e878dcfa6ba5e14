/**
 * The venue rules as a framework-free entry: pure data and functions, no I/O, no driver. Other
 * contexts' domain code imports them from here ('@gridrocket/exchanges/venues'), never the adapters.
 */
export * from './venue-rules';
export * from './margin-tiers';
export * from './markets';
export * from './market-maximums';
export * from './balance-reads';
export * from './registry';
export * from './key-permissions';
export { DAY } from './venue.types';
