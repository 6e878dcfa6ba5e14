import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IdentityModule } from '@gridrocket/identity/nest';
import { AuditorGuard } from './auditor.guard';
import { AuditorPolicy } from './auditor.policy';
import { HistoryController } from './history.controller';

/** Bot histories and state-at-time for owners and auditors; the auditors' read-only guard on every route. */
@Module({
  imports: [IdentityModule],
  controllers: [HistoryController],
  providers: [AuditorPolicy, { provide: APP_GUARD, useClass: AuditorGuard }],
  exports: [AuditorPolicy],
})
export class HistoryModule {}
