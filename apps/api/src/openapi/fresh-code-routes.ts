/**
 * Which operations need a fresh two-factor code in `X-TOTP` when the user has two-factor sign-in on (issue
 * 30): those whose handler carries FreshCodeGuard, read from the route metadata Nest runs the guards from,
 * so the document names every such route (test/fresh-code-order.spec.ts drives each one, issue 40).
 * Keyed by the operationId @nestjs/swagger derives (`<Controller>_<method>`).
 */
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { FreshCodeGuard } from '@gridrocket/identity/nest';

export function freshCodeOperations(app: INestApplication): Set<string> {
  const out = new Set<string>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      // eslint-disable-next-line @typescript-eslint/ban-types
      const cls = wrapper.metatype as Function | null;
      if (!cls?.prototype) continue;
      const onClass = (Reflect.getMetadata(GUARDS_METADATA, cls) as unknown[] | undefined) ?? [];
      for (const name of Object.getOwnPropertyNames(cls.prototype)) {
        const handler = (cls.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const guards = [...onClass, ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? [])];
        if (guards.includes(FreshCodeGuard)) out.add(`${cls.name}_${name}`);
      }
    }
  }
  return out;
}
