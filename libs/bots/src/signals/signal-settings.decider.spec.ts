import { stateAfter, thrown } from '../testing/spec-helpers';
import { decideSignalSettings, evolveSignalSettings, initialSignalSettings } from './signal-settings.decider';

const secret = (generation: number) => ({ botId: 'b1', userId: 'u1', generation, sealedSecret: `v1.sealed-${generation}`, secretLast4: `000${generation}`, allowBodySecret: false });
const then = stateAfter(decideSignalSettings, evolveSignalSettings);

describe('signal webhook settings decider (issue 32)', () => {
  it('enable (generation 1), rotate (2), disable: the secret of each generation replaces the last, and disabling drops it', () => {
    const on = then(initialSignalSettings, { type: 'EnableSignalWebhook', data: secret(1), expectedGeneration: 0 });
    expect(on).toMatchObject({ enabled: true, generation: 1, sealedSecret: 'v1.sealed-1' });
    expect(thrown(() => decideSignalSettings({ type: 'EnableSignalWebhook', data: secret(2), expectedGeneration: 1 }, on))).toMatchObject({ status: 409 });
    const rotated = then(on, { type: 'RotateSignalSecret', data: { ...secret(2), allowBodySecret: true }, expectedGeneration: 1 });
    expect(rotated).toMatchObject({ enabled: true, generation: 2, sealedSecret: 'v1.sealed-2', allowBodySecret: true });
    const off = then(rotated, { type: 'DisableSignalWebhook', botId: 'b1', userId: 'u1' });
    expect(off).toMatchObject({ enabled: false, sealedSecret: null, secretLast4: null, generation: 2 });
    // disabling again writes nothing; a rotation needs it on; enabling again takes generation 3, never an old one
    expect(decideSignalSettings({ type: 'DisableSignalWebhook', botId: 'b1', userId: 'u1' }, off)).toEqual([]);
    expect(thrown(() => decideSignalSettings({ type: 'RotateSignalSecret', data: secret(3), expectedGeneration: 2 }, off))).toMatchObject({ status: 404 });
    expect(thrown(() => decideSignalSettings({ type: 'EnableSignalWebhook', data: secret(1), expectedGeneration: 2 }, off))).toMatchObject({ status: 409 });
    expect(then(off, { type: 'EnableSignalWebhook', data: secret(3), expectedGeneration: 2 })).toMatchObject({ enabled: true, generation: 3 });
  });

  it('two rotations decided on the same generation: the second is refused (409), its secret sealed for a taken generation', () => {
    const on = then(initialSignalSettings, { type: 'EnableSignalWebhook', data: secret(1), expectedGeneration: 0 });
    const first = then(on, { type: 'RotateSignalSecret', data: secret(2), expectedGeneration: 1 });
    expect(thrown(() => decideSignalSettings({ type: 'RotateSignalSecret', data: secret(2), expectedGeneration: 1 }, first))).toMatchObject({ status: 409 });
  });

  it('the held-position choice (issue 40): refuse at first; chosen only while signals are on; kept by a rotation that does not name one; an old event without it keeps the choice', () => {
    const on = then(initialSignalSettings, { type: 'EnableSignalWebhook', data: secret(1), expectedGeneration: 0 });
    expect(on.heldPosition).toBe('refuse');
    const sell = then(on, { type: 'ChooseHeldPosition', botId: 'b1', userId: 'u1', heldPosition: 'sell' });
    expect(sell.heldPosition).toBe('sell');
    expect(decideSignalSettings({ type: 'ChooseHeldPosition', botId: 'b1', userId: 'u1', heldPosition: 'sell' }, sell)).toEqual([]);
    expect(then(sell, { type: 'RotateSignalSecret', data: secret(2), expectedGeneration: 1 }).heldPosition).toBe('sell');
    expect(then(sell, { type: 'RotateSignalSecret', data: { ...secret(2), heldPosition: 'resume' }, expectedGeneration: 1 }).heldPosition).toBe('resume');
    const off = then(sell, { type: 'DisableSignalWebhook', botId: 'b1', userId: 'u1' });
    expect(thrown(() => decideSignalSettings({ type: 'ChooseHeldPosition', botId: 'b1', userId: 'u1', heldPosition: 'resume' }, off))).toMatchObject({ status: 404 });
  });
});
