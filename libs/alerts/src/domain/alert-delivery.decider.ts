import { createHash } from 'node:crypto';
import { recordOnceDecider, type RecordedOnce } from '@gridrocket/shared';
import type { AlertChannel, AlertSubject } from './alert.kinds';

/**
 * One delivery of one alert on one channel, recorded in its own stream (`alert-delivery-<digest of
 * deliveryId>`, deliveryId = `<bot event id>:<channel>`): the stream's existence is what tells a
 * restarted dispatcher that this alert went out already (at-least-once, never twice once recorded).
 */
export const DELIVERY_STATUSES = ['delivered', 'failed', 'rate-limited', 'refused'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface AlertDeliveryRecordedData {
  deliveryId: string;
  userId: string;
  channel: AlertChannel;
  /** The alert's kind, or `test` for "Send a test" (issue 40; then `eventType` is AlertTest and `botId` ''). */
  kind: AlertSubject;
  eventType: string;
  botId: string;
  symbol: string;
  title: string;
  status: DeliveryStatus;
  /** The last attempt's answer: the HTTP status (webhook, Telegram) or the SMTP reply code (e-mail); null for no answer or a mail file. */
  code: number | null;
  attempts: number;
  /** Why it failed, in words that carry no secret. */
  error: string | null;
  at: string;
}

export type AlertDeliveryEvent = { type: 'AlertDeliveryRecorded'; data: AlertDeliveryRecordedData };
export type AlertDeliveryCommand = { type: 'RecordDelivery'; data: AlertDeliveryRecordedData };
export type AlertDeliveryState = RecordedOnce;

export const ALERT_DELIVERY_STREAM_PREFIX = 'alert-delivery-';
export const deliveryIdOf = (eventId: string, channel: AlertChannel) => `${eventId}:${channel}`;
export const alertDeliveryStream = (deliveryId: string) =>
  `${ALERT_DELIVERY_STREAM_PREFIX}${createHash('sha256').update(deliveryId).digest('hex').slice(0, 32)}`;

/** A delivery is recorded once: recording it again (another process, a replayed event) changes nothing. */
export const alertDeliveryDecider = recordOnceDecider<AlertDeliveryCommand, AlertDeliveryEvent>('AlertDeliveryRecorded');
