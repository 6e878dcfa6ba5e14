import { Module, OnModuleInit } from '@nestjs/common';
import { Projector } from '@gridrocket/read-store';
import { AuthController } from './auth.controller';
import { sessionsProjection, usersProjection } from './identity.projections';
import { SessionGuard } from './session.guard';
import { SessionService } from './session.service';

@Module({
  controllers: [AuthController],
  providers: [SessionService, SessionGuard],
  exports: [SessionService, SessionGuard],
})
export class IdentityModule implements OnModuleInit {
  constructor(private readonly projector: Projector) {}

  onModuleInit() {
    this.projector.add(usersProjection);
    this.projector.add(sessionsProjection);
  }
}
