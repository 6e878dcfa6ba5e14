import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { StandInRunner } from './runner/stand-in.runner';

@Module({
  imports: [CqrsModule],
  providers: [StandInRunner],
})
export class TradingModule {}
