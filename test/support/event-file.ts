/** The app's event store file read from the test beside the running app (as an operator's tool would). */
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';

/** `read(store)` on DATA_DIR/events.sqlite of the app in `dataDir`, the store opened for it and closed after. */
export async function readEventFile<T>(dataDir: string, read: (store: SqliteEventStore) => Promise<T>): Promise<T> {
  const store = new SqliteEventStore(join(dataDir, 'events.sqlite'));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}
