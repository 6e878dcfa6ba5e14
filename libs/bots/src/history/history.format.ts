import type { RecordedEvent } from '@gridrocket/event-store';
import { ValidationError } from '@gridrocket/shared';

/** One event of a bot's history, as auditors read it. */
export interface HistoryEntry {
  /** The event's id: what a later event's causationId points at, and Kafka's `event-id` header. */
  id: string;
  revision: number;
  position: number;
  type: string;
  data: unknown;
  /** Who (userId), when (occurredAt), correlationId, causationId, schemaVersion. */
  metadata: Record<string, unknown>;
  /** When the store wrote it. */
  created: string;
}

export type HistoryFormat = 'json' | 'ndjson' | 'csv';

export function toHistoryEntry(event: RecordedEvent): HistoryEntry {
  return {
    id: event.id,
    revision: Number(event.revision),
    position: Number(event.position),
    type: event.type,
    data: event.data,
    metadata: { ...event.metadata },
    created: event.created,
  };
}

/** `?format=` wins; else the Accept header; else JSON. An unknown `format` is a 400. */
export function negotiateFormat(format: unknown, accept: string | undefined): HistoryFormat {
  if (format !== undefined && format !== '') {
    const f = String(format).toLowerCase();
    if (f === 'json' || f === 'ndjson' || f === 'csv') return f;
    throw new ValidationError([{ field: 'format', message: 'format must be json, ndjson or csv' }]);
  }
  const a = (accept ?? '').toLowerCase();
  if (a.includes('text/csv')) return 'csv';
  if (a.includes('application/x-ndjson') || a.includes('application/ndjson') || a.includes('application/jsonl')) return 'ndjson';
  return 'json';
}

export const CONTENT_TYPES: Record<HistoryFormat, string> = {
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

export const CSV_COLUMNS = [
  'revision', 'position', 'id', 'type', 'occurredAt', 'created', 'userId', 'correlationId', 'causationId', 'schemaVersion', 'data', 'metadata',
] as const;

const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

/** RFC 4180 quoting, and a leading quote for cells a spreadsheet would run as a formula. */
export function csvCell(value: unknown): string {
  if (typeof value === 'number' && value >= 0) return String(value); // digits, '.', 'e', '+' after the first: nothing to guard
  let s = value === null || value === undefined ? '' : typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(QUOTE, '""')}"` : s;
}

export function csvHeader(): string {
  return CSV_COLUMNS.join(',') + '\r\n';
}

export function csvRow(e: HistoryEntry): string {
  const m = e.metadata;
  const cells = [e.revision, e.position, e.id, e.type, m.occurredAt, e.created, m.userId, m.correlationId, m.causationId, m.schemaVersion, e.data, m];
  return cells.map(csvCell).join(',') + '\r\n';
}

export function ndjsonRow(e: HistoryEntry): string {
  return JSON.stringify(e) + '\n';
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO-8601 time (a date alone means its start, UTC); absent means now. Anything else is a 400. */
export function parseAt(at: unknown, now = new Date()): Date {
  if (at === undefined || at === '') return now;
  if (typeof at !== 'string' || !ISO.test(at.trim())) {
    throw new ValidationError([{ field: 'at', message: 'at must be an ISO-8601 time, e.g. 2025-01-31T12:00:00Z' }]);
  }
  const s = at.trim();
  // Date.parse rolls 2025-02-30 over into March: check the calendar and the clock first
  const [y, mo, d] = s.slice(0, 10).split('-').map(Number);
  const hh = s.length > 11 ? Number(s.slice(11, 13)) : 0;
  const mm = s.length > 14 ? Number(s.slice(14, 16)) : 0;
  const ss = s.length > 17 && s[16] === ':' ? Number(s.slice(17, 19)) : 0;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || hh > 23 || mm > 59 || ss > 59) {
    throw new ValidationError([{ field: 'at', message: 'at must be an ISO-8601 time, e.g. 2025-01-31T12:00:00Z' }]);
  }
  const ms = Date.parse(/T/.test(s) && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s + 'Z' : s);
  if (!Number.isFinite(ms)) throw new ValidationError([{ field: 'at', message: 'at must be an ISO-8601 time, e.g. 2025-01-31T12:00:00Z' }]);
  return new Date(ms);
}

/** When an event happened: its metadata's occurredAt, else the store's write time. */
export function eventTime(event: Pick<RecordedEvent, 'metadata' | 'created'>): number {
  const t = Date.parse(String(event.metadata?.occurredAt ?? ''));
  return Number.isFinite(t) ? t : Date.parse(event.created);
}
