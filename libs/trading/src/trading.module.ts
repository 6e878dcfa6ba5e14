import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BOT_OWNERSHIP, EmbeddedOwnership } from '@gridrocket/streaming';
import { GridRunnerService } from './runner/grid-runner.service';

/**
 * The grid runner. Needs EXCHANGE_PROVIDER (CredentialsModule, global) and the event and read
 * stores. Which bots it runs comes from the ownership port: the embedded adapter owns them all.
 */
@Module({
  imports: [CqrsModule],
  providers: [{ provide: BOT_OWNERSHIP, useFactory: () => new EmbeddedOwnership() }, GridRunnerService],
  exports: [GridRunnerService],
})
export class TradingModule {}
