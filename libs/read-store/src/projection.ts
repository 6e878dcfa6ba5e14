import type { RecordedEvent, SubscriptionFilter } from '@gridrocket/event-store';
import type { Doc } from './read-store.port';

/**
 * A projection keeps one document per key up to date. `reduce` is pure: given
 * the document as it stands (null when absent or deleted) and an event, it
 * returns the new document, null to delete, or undefined for "no change".
 * The revision guard is the stream revision: a document never moves backwards.
 */
export interface Projection<D extends Doc = Doc> {
  name: string;
  collection: string;
  indexes?: string[];
  filter: SubscriptionFilter;
  docId(event: RecordedEvent): string | null;
  reduce(doc: D | null, event: RecordedEvent): D | null | undefined;
  /**
   * A rebuild's faster fold (optional): folds `event` into `doc`, which only the rebuild holds, in place,
   * leaving it exactly as `reduce` would give it (a property test proves it), and returns true; or returns
   * false, having changed nothing, to let `reduce` fold this event.
   */
  reduceInPlace?(doc: D, event: RecordedEvent): boolean;
  /**
   * Where a rebuild's worker thread loads this projection from (the module's file and the export's
   * name). Only for a projection each of whose documents is folded from the events of one stream.
   */
  source?: { module: string; exportName: string };
}
