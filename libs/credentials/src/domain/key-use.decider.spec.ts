import { ConflictError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { KeyUseEvent, keyUseDecider } from './key-use.decider';

const { given } = deciderSpec(keyUseDecider);
const claimed = (botId: string): KeyUseEvent => ({ type: 'KeyUseClaimed', data: { botId, botRevision: 3, at: '2026-01-01T00:00:00.000Z' } });
const removing = (credentialId: string): KeyUseEvent => ({ type: 'KeyRemovalRecorded', data: { credentialId } });
const bot = { botId: 'b1', label: 'BTC/USDT spot bot b1' };

describe('key use (issue 29: a key a running bot uses is not deleted)', () => {
  it('given a bot that claimed the key and is still active, when the key it signs with is removed, then 409 naming the bot', () => {
    given(claimed('b1')).when({ type: 'RemoveKey', credentialId: 'k1', inUse: true, active: [bot] }).thenThrows(ConflictError, /used by a running bot: BTC\/USDT spot bot b1\. Stop it before deleting the key/);
  });
  it('given a claim whose bot stopped since, when the key is removed, then the claim is released and the removal recorded', () => {
    given(claimed('b1')).when({ type: 'RemoveKey', credentialId: 'k1', inUse: true, active: [] }).then({ type: 'KeyUseReleased', data: { botId: 'b1' } }, removing('k1'));
  });
  it('given an active bot, when an older key it does not sign with is removed, then the removal is recorded', () => {
    given(claimed('b1')).when({ type: 'RemoveKey', credentialId: 'k0', inUse: false, active: [bot] }).then(removing('k1'.replace('1', '0')));
  });
  it('given the only key being removed, when a bot claims it, then 409 (no key left)', () => {
    given(removing('k1')).when({ type: 'ClaimKey', botId: 'b2', botRevision: 1, at: 'x', liveCredentialIds: ['k1'], refusal: 'No API key' }).thenThrows(ConflictError, 'No API key');
  });
  it('given another live key, when a bot claims, then the claim is recorded', () => {
    given(removing('k1')).when({ type: 'ClaimKey', botId: 'b2', botRevision: 1, at: 'x', liveCredentialIds: ['k1', 'k2'], refusal: 'No API key' }).then({ type: 'KeyUseClaimed', data: { botId: 'b2', botRevision: 1, at: 'x' } });
  });
});
