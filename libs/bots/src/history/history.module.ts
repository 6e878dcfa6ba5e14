import { Module, OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Projector } from '@gridrocket/read-store';
import { IdentityModule } from '@gridrocket/identity/nest';
import { AuditorGuard } from './auditor.guard';
import { AuditorPolicy } from './auditor.policy';
import { HistoryController } from './history.controller';
import { AuditController } from './audit.controller';
import { auditBotsProjection } from './audit-bots.projection';

/**
 * Bot histories and state-at-time for owners and auditors; the auditors' list of every user's bots (issue
 * 40, its own projection: deleted bots stay in it); the auditors' read-only guard on every route.
 */
@Module({
  imports: [IdentityModule],
  controllers: [HistoryController, AuditController],
  providers: [AuditorPolicy, { provide: APP_GUARD, useClass: AuditorGuard }],
  exports: [AuditorPolicy],
})
export class HistoryModule implements OnModuleInit {
  constructor(private readonly projector: Projector) {}

  onModuleInit() {
    this.projector.add(auditBotsProjection);
  }
}
