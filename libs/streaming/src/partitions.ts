import { Partitioners } from 'kafkajs';
import type { PartitionMetadata } from 'kafkajs';

const defaultPartitioner = Partitioners.DefaultPartitioner();

/**
 * The partition of a bot among `partitionCount`: where Kafka's own (Java-compatible murmur2) partitioner
 * would place a message keyed by the bot's stream id, `bot-<id>`. A pure function of the id (kafkajs's
 * partitioner only, no broker). The lease adapter keeps the mapping the consumer-group adapter had before
 * issue 41, so the ownership streams `ownership-<group>-p<n>` (and their epochs) carry on unchanged.
 */
export function botPartitionOf(botId: string, partitionCount: number): number {
  const partitionMetadata: PartitionMetadata[] = Array.from({ length: partitionCount }, (_, i) => ({
    partitionId: i,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));
  return defaultPartitioner({ topic: 'gridrocket.bot-ownership', partitionMetadata, message: { key: `bot-${botId}`, value: null } });
}
