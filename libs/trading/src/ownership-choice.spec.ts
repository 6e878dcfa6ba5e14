import { loadConfig } from '@gridrocket/shared/runtime';
import { createOwnership } from './trading.module';

describe('which ownership adapter a runner uses', () => {
  it('given no Kafka, then the embedded adapter owns every bot', () => {
    const ownership = createOwnership(loadConfig({}));
    expect(ownership.kind).toBe('embedded');
  });

  it('given KAFKA_BROKERS, then a Kafka consumer group spreads bots over the runners (nothing connects until start)', () => {
    const ownership = createOwnership(loadConfig({ KAFKA_BROKERS: '127.0.0.1:1' }));
    expect(ownership.kind).toBe('kafka');
    expect(ownership.partitionOf('0b1c2d3e-0000-4000-8000-000000000000')).toBe(ownership.partitionOf('0b1c2d3e-0000-4000-8000-000000000000'));
  });
});
