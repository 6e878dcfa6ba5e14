import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SessionGuard } from './session.guard';

/**
 * A controller whose every route needs a signed-in user (SessionGuard): its OpenAPI tag and its path
 * (the tag's name when not given; '' for routes that name their whole path).
 */
export const SessionController = (tag: string, path: string = tag): ClassDecorator =>
  applyDecorators(ApiTags(tag), Controller(path), UseGuards(SessionGuard));
