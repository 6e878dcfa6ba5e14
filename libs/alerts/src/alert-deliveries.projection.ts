import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import { ALERT_DELIVERY_STREAM_PREFIX, AlertDeliveryRecordedData } from './domain/alert-delivery.decider';

/** The delivery log the dashboard shows: time, event, channel, status code, attempts. No secret, no URL. */
export interface AlertDeliveryDoc extends Pick<AlertDeliveryRecordedData, 'at' | 'symbol' | 'title' | 'status' | 'code' | 'attempts' | 'error'> {
  id: string;
  userid: string;
  channel: string;
  kind: string;
  event: string;
  botid: string;
}

export type AlertDeliveryView = Omit<AlertDeliveryDoc, 'userid'>;

export const ALERT_DELIVERIES_COLLECTION = 'alert_deliveries';

export const alertDeliveriesProjection: Projection<AlertDeliveryDoc> = {
  name: 'alert-deliveries',
  collection: ALERT_DELIVERIES_COLLECTION,
  indexes: ['userid', 'at'],
  filter: { streamPrefixes: [ALERT_DELIVERY_STREAM_PREFIX], eventTypes: ['AlertDeliveryRecorded'] },
  docId: (event: RecordedEvent) => event.streamId.slice(ALERT_DELIVERY_STREAM_PREFIX.length),
  reduce(_doc, event) {
    if (event.type !== 'AlertDeliveryRecorded') return undefined;
    const d = event.data as AlertDeliveryRecordedData;
    return {
      id: event.streamId.slice(ALERT_DELIVERY_STREAM_PREFIX.length),
      userid: d.userId,
      at: d.at,
      channel: d.channel,
      kind: d.kind,
      event: d.eventType,
      botid: d.botId,
      symbol: d.symbol,
      title: d.title,
      status: d.status,
      code: d.code,
      attempts: d.attempts,
      error: d.error,
    };
  },
};

export function publicDelivery(doc: AlertDeliveryDoc): AlertDeliveryView {
  const { userid: _u, ...view } = doc;
  return view;
}
