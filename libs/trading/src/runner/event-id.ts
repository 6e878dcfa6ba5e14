import { createHash } from 'node:crypto';

/**
 * A deterministic event id (UUID v5 layout, SHA-1 of the parts): the same bot, kind and key always
 * give the same id, so the event store treats a repeated append of it as a no-op. This is what makes
 * "record after the exchange acted" crash-safe: a fill or a profit can never be counted twice.
 */
export function eventId(...parts: Array<string | number>): string {
  const h = createHash('sha1').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
