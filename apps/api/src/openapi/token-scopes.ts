/**
 * Which operations take a personal access token, and with which scope (issue 31): read from the same
 * route metadata the token guard reads at request time (`tokenScopeOf`, libs/identity), so the document
 * and the guard cannot disagree. Keyed by the operationId @nestjs/swagger derives (`<Controller>_<method>`).
 */
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { AccessTokenScope } from '@gridrocket/identity';
import { tokenScopeOf } from '@gridrocket/identity/nest';

export function tokenScopes(app: INestApplication): Map<string, AccessTokenScope | null> {
  const reflector = app.get(Reflector);
  const out = new Map<string, AccessTokenScope | null>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      // eslint-disable-next-line @typescript-eslint/ban-types
      const cls = wrapper.metatype as Function | null;
      if (!cls?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(cls.prototype)) {
        const handler = (cls.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod] ?? 'GET';
        out.set(`${cls.name}_${name}`, tokenScopeOf(reflector, handler, cls, method));
      }
    }
  }
  return out;
}
