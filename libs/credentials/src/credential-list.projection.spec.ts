import { projectionSpec, type GivenEvent } from '@gridrocket/read-store/testing/projection-spec';
import { CredentialDoc, credentialListProjection, publicCredential } from './credential-list.projection';
import type { CredentialAddedData, CredentialEvent } from './domain/credential.events';

const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const on = (e: CredentialEvent, minute: number): GivenEvent => ({ streamId: `credential-${e.data.credentialId}`, type: e.type, data: e.data, at: at(minute) });
const addedData = (credentialId: string, userId = 'u1'): CredentialAddedData => ({
  credentialId, userId, exchange: 'Kucoin', apiKeyId: `pub-${credentialId}`, sealedSecret: 'v1.k.iv.tag.secret', sealedPassphrase: 'v1.k.iv.tag.pass', keyId: `key-${credentialId}`,
});
const added = (id: string, userId?: string): CredentialEvent => ({ type: 'CredentialAdded', data: addedData(id, userId) });
const removed = (id: string): CredentialEvent => ({ type: 'CredentialRemoved', data: { credentialId: id, keyId: `key-${id}` } });

describe.each([
  ['delivered once', false],
  ['delivered twice (at-least-once subscription)', true],
])('credential list projection, events %s', (_how, deliverTwice) => {
  let spec: ReturnType<typeof projectionSpec<CredentialDoc>>;
  beforeEach(() => {
    spec = projectionSpec(credentialListProjection, { deliverTwice });
  });
  afterEach(() => spec.close());

  it('given added credentials, then one document each with who, exchange and public key only: no ciphertext, no key id', async () => {
    const docs = await spec.given(on(added('c1'), 1), on(added('c2', 'u2'), 2));
    expect(docs).toEqual([
      { id: 'c1', userid: 'u1', exchange: 'Kucoin', apikeyid: 'pub-c1', createdat: at(1) },
      { id: 'c2', userid: 'u2', exchange: 'Kucoin', apikeyid: 'pub-c2', createdat: at(2) },
    ]);
    expect(JSON.stringify(docs)).not.toMatch(/v1\.k|key-c/);
    expect(publicCredential(docs[0])).toEqual({ id: 'c1', exchange: 'Kucoin', apikeyid: 'pub-c1' });
    expect(spec.announced).toEqual(['c1 CredentialAdded', 'c2 CredentialAdded']);
  });

  it('given a removal, then its document is gone and the others stay', async () => {
    expect(await spec.given(on(added('c1'), 1), on(added('c2'), 2), on(removed('c1'), 3))).toEqual([expect.objectContaining({ id: 'c2' })]);
    expect((await spec.stored('c1'))!.doc).toBeNull();
  });

  it('given permission checks, then the document keeps the last facts (a failed check keeps them) and the view warns (issue 30)', async () => {
    const facts = { withdraw: false, read: true, spot: true, futures: true, ipRestricted: false };
    const checked = (minute: number, permissions: typeof facts | null, failure: 'refused' | null): GivenEvent => ({
      streamId: 'credential-c1', type: 'CredentialPermissionsChecked', data: { credentialId: 'c1', checkedAt: at(minute), source: 'daily', permissions, failure }, at: at(minute),
    });
    const [doc] = await spec.given(on(added('c1'), 1), checked(2, facts, null), checked(3, null, 'refused'));
    expect(doc).toEqual({ id: 'c1', userid: 'u1', exchange: 'Kucoin', apikeyid: 'pub-c1', createdat: at(1), checkedat: at(3), permissions: facts, checkfailure: 'refused' });
    expect(publicCredential(doc, ['203.0.113.7']).warnings!.map((w) => w.code)).toEqual(['key-refused', 'no-ip-restriction']);
    // a check of a removed key changes nothing
    expect(await spec.given(on(removed('c1'), 4), checked(5, facts, null))).toEqual([]);
  });

  it('replaying every event over the documents changes and announces nothing', async () => {
    const before = await spec.given(on(added('c1'), 1), on(removed('c1'), 2), on(added('c2'), 3));
    expect(await spec.replayed()).toEqual(before);
    expect(spec.announced).toEqual([]);
  });
});
