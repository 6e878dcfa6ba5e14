import { Controller, Get, Headers, Inject, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { EVENT_STORE, EventStore, RecordedEvent, StreamNotFoundError } from '@gridrocket/event-store';
import { NotFoundError } from '@gridrocket/shared';
import { CurrentUser, SessionUser } from '@gridrocket/shared/http';
import { SessionGuard } from '@gridrocket/identity/nest';
import { BOT_NOT_FOUND } from '../domain/bot.decider';
import { botStream } from '../domain/bot.events';
import { AuditorPolicy } from './auditor.policy';
import { BotStateAt, botStateAt } from './bot-state-at';
import { CONTENT_TYPES, csvHeader, eventTime, csvRow, negotiateFormat, ndjsonRow, parseAt, toHistoryEntry } from './history.format';

/** Resolves when the response can take more, or is gone (a client that left must not hang the read). */
function drained(res: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.reject(new Error('response closed'));
  return new Promise((resolve, reject) => {
    const done = () => {
      res.off('close', gone);
      resolve();
    };
    const gone = () => {
      res.off('drain', done);
      reject(new Error('response closed'));
    };
    res.once('drain', done);
    res.once('close', gone);
  });
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 2000;

/**
 * Auditors' routes: a bot's full event history (JSON, NDJSON or CSV) and its
 * state at any past moment. A trader reads only their own bots (another's is
 * 404, as everywhere); an auditor reads any bot, deleted ones included.
 */
@ApiTags('history')
@Controller('bots')
@UseGuards(SessionGuard)
export class HistoryController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly auditors: AuditorPolicy,
  ) {}

  /** Reads the stream page by page, after checking that the user may read it. */
  private async *readable(id: unknown, user: SessionUser): AsyncGenerator<RecordedEvent[]> {
    if (typeof id !== 'string' || !ID.test(id)) throw new NotFoundError(BOT_NOT_FOUND);
    const stream = botStream(id.toLowerCase());
    let page: RecordedEvent[];
    try {
      page = await this.events.readStream(stream, { maxCount: PAGE });
    } catch (err) {
      if (err instanceof StreamNotFoundError) throw new NotFoundError(BOT_NOT_FOUND);
      throw err;
    }
    const created = page[0];
    const owner = created?.type === 'BotCreated' ? (created.data as { userId?: string }).userId : undefined;
    if (owner !== user.uid && !this.auditors.isAuditor(user)) throw new NotFoundError(BOT_NOT_FOUND);
    for (;;) {
      yield page;
      if (page.length < PAGE) return;
      page = await this.events.readStream(stream, { fromRevision: page[page.length - 1].revision + 1n, maxCount: PAGE });
      if (page.length === 0) return;
    }
  }

  @Get(':id/history')
  @ApiProduces('application/json', 'application/x-ndjson', 'text/csv')
  @ApiQuery({ name: 'format', required: false, enum: ['json', 'ndjson', 'csv'] })
  async history(
    @Param('id') id: string,
    @Query('format') format: unknown,
    @Headers('accept') accept: string | undefined,
    @CurrentUser() user: SessionUser,
    @Res() res: Response,
  ): Promise<void> {
    const chosen = negotiateFormat(format, accept);
    const pages = this.readable(id, user);
    const first = await pages.next(); // access checks happen here, before any byte is written
    res.status(200);
    res.setHeader('content-type', CONTENT_TYPES[chosen]);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('vary', 'accept');
    if (chosen !== 'json') {
      res.setHeader('content-disposition', `attachment; filename="bot-${id.toLowerCase()}-history.${chosen}"`);
    }
    let n = 0;
    // Page by page, as it is read (compressed on the way by the compression middleware): a long
    // history is never held whole, and a slow client slows the reading down (backpressure).
    const write = async (page: RecordedEvent[]) => {
      let chunk = '';
      for (const e of page) {
        const entry = toHistoryEntry(e);
        if (chosen === 'csv') chunk += csvRow(entry);
        else if (chosen === 'ndjson') chunk += ndjsonRow(entry);
        else chunk += (n ? ',' : '') + JSON.stringify(entry);
        n++;
      }
      if (chunk && !res.write(chunk)) await drained(res);
    };
    try {
      if (chosen === 'csv') res.write(csvHeader());
      if (chosen === 'json') res.write('[');
      if (!first.done) await write(first.value);
      for await (const page of pages) await write(page);
      if (chosen === 'json') res.write(']');
      res.end();
    } catch {
      res.destroy(); // headers are out: a truncated body must not look complete
    }
  }

  @Get(':id/state')
  @ApiQuery({ name: 'at', required: false, description: 'ISO-8601 time; default now' })
  async state(@Param('id') id: string, @Query('at') at: unknown, @CurrentUser() user: SessionUser): Promise<BotStateAt> {
    const when = parseAt(at);
    const events: RecordedEvent[] = [];
    for await (const page of this.readable(id, user)) {
      events.push(...page);
      if (page.length && eventTime(page[page.length - 1]) > when.getTime()) break;
    }
    return botStateAt(id.toLowerCase(), events, when);
  }
}
