import { recordOnceDecider, type RecordedOnce } from '@gridrocket/shared';

/**
 * One mail of the outbox (issue 31), recorded in its own stream `mail-delivery-<causing event id>`: the
 * stream's existence is what tells the outbox (after a restart, or an event handled again) that this mail
 * is done. Recorded once: recording it again changes nothing.
 */
/** `security-notice` (issue 38): two-factor turned on or off, a recovery code used, the code step locked. */
export type MailKind = 'verify-email' | 'reset-password' | 'registration-attempt' | 'security-notice';
/** sent: the server took it (250); failed: refused for good (5yz); skipped: not worth sending any more (the link was replaced, used or expired before the server took it). */
export type MailStatus = 'sent' | 'failed' | 'skipped';

export interface MailRecordedData {
  /** The id of the event that asked for the mail. */
  causeId: string;
  uid: string;
  kind: MailKind;
  status: MailStatus;
  /** The SMTP reply of the last try (250 sent; the 5yz of a failure); null for a mail file or a skipped mail. */
  code: number | null;
  attempts: number;
  messageId: string | null;
  /** Why it failed or was skipped, in words that carry no secret. */
  reason: string | null;
  at: string;
}

export type MailDeliveryEvent = { type: 'MailRecorded'; data: MailRecordedData };
export type MailDeliveryCommand = { type: 'RecordMail'; data: MailRecordedData };
export type MailDeliveryState = RecordedOnce;

export const MAIL_DELIVERY_STREAM_PREFIX = 'mail-delivery-';
export const mailDeliveryStream = (causeId: string) => `${MAIL_DELIVERY_STREAM_PREFIX}${causeId}`;

export const mailDeliveryDecider = recordOnceDecider<MailDeliveryCommand, MailDeliveryEvent>('MailRecorded');
