import { randomUUID } from 'node:crypto';
import { EmbeddedOwnership } from './embedded.ownership';
import { botPartitionOf } from './partitions';
import { OwnershipState, type OwnershipListener } from './ownership.port';

function recorder() {
  const calls: string[] = [];
  const listener: OwnershipListener = {
    async onAssigned(p) {
      calls.push(`assigned ${p.join(',')}`);
    },
    async onRevoked(p, reason) {
      calls.push(`revoked ${p.join(',')}${reason ? ` (${reason})` : ''}`);
    },
  };
  return { calls, listener };
}

describe('embedded ownership', () => {
  it('owns every bot on its one runner while started', async () => {
    const o = new EmbeddedOwnership();
    const { calls, listener } = recorder();
    expect(o.owns(randomUUID())).toBe(false);
    await o.start(listener);
    expect(o.partitionCount).toBe(1);
    expect(o.owned()).toEqual([0]);
    for (let i = 0; i < 20; i++) expect(o.owns(randomUUID())).toBe(true);
    await o.stop();
    expect(o.owns(randomUUID())).toBe(false);
    expect(calls).toEqual(['assigned 0', 'revoked 0']);
  });
});

describe('bot partitions', () => {
  it('partitions bots by id exactly as Kafka\'s murmur2 partitioner places the key bot-<id> (the mapping the ownership streams had before issue 41)', () => {
    // reference values of Kafka's Java client: Utils.toPositive(Utils.murmur2(key)) % n
    expect(botPartitionOf('a', 1_000_000)).toBe(Number((BigInt(murmur2Reference('bot-a')) & 0x7fffffffn) % 1_000_000n));
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 4000; i++) counts[botPartitionOf(randomUUID(), 8)]++;
    for (const c of counts) expect(c).toBeGreaterThan(350); // spread evenly (500 each on average)
    const id = randomUUID();
    expect(botPartitionOf(id, 8)).toBe(botPartitionOf(id, 8));
  });
});

describe('ownership callbacks (OwnershipState)', () => {
  it('serialises the callbacks: a revocation waits for the assignment in progress, and says why', async () => {
    const state = new OwnershipState();
    const order: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const listener: OwnershipListener = {
      async onAssigned(p) {
        order.push(`assign start ${p}`);
        await slow;
        order.push(`assign end ${p}`);
      },
      async onRevoked(p, reason) {
        order.push(`revoke ${p} ${reason}`);
      },
    };
    void state.moveTo([4], listener);
    expect(state.has(4)).toBe(true);
    void state.moveTo([], listener, 'lapsed');
    expect(state.has(4)).toBe(false); // at once, before any callback ran
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['assign start 4']);
    release();
    await state.settled();
    expect(order).toEqual(['assign start 4', 'assign end 4', 'revoke 4 lapsed']);
  });

  it('a listener that throws does not stop the next callbacks', async () => {
    const errors: Error[] = [];
    const state = new OwnershipState((e) => errors.push(e));
    const seen: string[] = [];
    const listener: OwnershipListener = {
      onAssigned: async (p) => {
        seen.push(`a${p}`);
        throw new Error('resume failed');
      },
      onRevoked: async (p) => void seen.push(`r${p}`),
    };
    void state.moveTo([1], listener);
    await state.moveTo([], listener);
    expect(seen).toEqual(['a1', 'r1']);
    expect(errors.map((e) => e.message)).toEqual(['resume failed']);
  });
});

/** Kafka's murmur2 (clients/.../Utils.java), written out independently of kafkajs. */
function murmur2Reference(key: string): number {
  const data = Buffer.from(key);
  const m = 0x5bd1e995;
  let h = (0x9747b28c ^ data.length) | 0;
  const len4 = data.length >> 2;
  for (let i = 0; i < len4; i++) {
    let k = data.readInt32LE(i * 4);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const rest = data.length & 3;
  const base = data.length & ~3;
  if (rest === 3) h ^= data[base + 2] << 16;
  if (rest >= 2) h ^= data[base + 1] << 8;
  if (rest >= 1) {
    h ^= data[base];
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}
