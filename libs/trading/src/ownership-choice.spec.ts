import { SqliteEventStore } from '@gridrocket/event-store';
import { loadConfig } from '@gridrocket/shared/runtime';
import { createOwnership } from './trading.module';

describe('which ownership adapter a runner uses', () => {
  const events = new SqliteEventStore(':memory:');
  afterAll(() => events.close());

  it('given no Kafka and nothing else said, then the embedded adapter owns every bot', () => {
    const ownership = createOwnership(loadConfig({}), events, {});
    expect(ownership.kind).toBe('embedded');
  });

  it('given KAFKA_BROKERS (as before issue 41) or RUNNER_OWNERSHIP=leases, then leases in the event store spread bots over the runners: Kafka plays no part (nothing is read until start)', () => {
    for (const env of [{}, { RUNNER_OWNERSHIP: 'leases' }]) {
      const config = loadConfig('RUNNER_OWNERSHIP' in env ? {} : { KAFKA_BROKERS: '127.0.0.1:1' });
      const ownership = createOwnership(config, events, env);
      expect(ownership.kind).toBe('leases');
      expect(ownership.partitionCount).toBe(24);
      expect(ownership.partitionOf('0b1c2d3e-0000-4000-8000-000000000000')).toBe(ownership.partitionOf('0b1c2d3e-0000-4000-8000-000000000000'));
    }
  });

  it('refuses settings that would make the lease unsafe, saying which', () => {
    expect(() => createOwnership(loadConfig({}), events, { RUNNER_OWNERSHIP: 'kafka' })).toThrow('RUNNER_OWNERSHIP must be embedded or leases');
    expect(() => createOwnership(loadConfig({}), events, { RUNNER_OWNERSHIP: 'leases', RUNNER_LEASE_MS: '6000', RUNNER_TAKEOVER_MS: '9000' })).toThrow('takeoverMs 9000 must be longer than twice leaseMs 6000');
    expect(() => createOwnership(loadConfig({}), events, { RUNNER_OWNERSHIP: 'leases', RUNNER_PARTITIONS: 'many' })).toThrow('RUNNER_PARTITIONS must be a whole number above 0');
  });
});
