import { eventStoreContract } from './event-store.contract';
import { KurrentDbEventStore } from './kurrentdb.event-store';

// Runs the same contract as the SQLite adapter against a real KurrentDB/EventStoreDB
// whenever KURRENTDB_URL is set (e.g. kurrentdb://localhost:2113?tls=false).
// No such server can run on the development machine or in CI, so there it is skipped.
const url = process.env.KURRENTDB_URL;
(url ? describe : describe.skip)(`KurrentDB event store (${url ? url : 'skipped: KURRENTDB_URL not set'})`, () => {
  eventStoreContract(async () => new KurrentDbEventStore(url!));
});
