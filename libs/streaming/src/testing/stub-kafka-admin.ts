/**
 * kafkajs's admin as far as ensureTopics uses it, for specs: the topics it creates, and the metadata
 * answer the spec gives (`fetchTopicMetadata(asked, topics)`: what the broker says or throws).
 */
export function stubKafkaAdmin(topics: Set<string>, fetchTopicMetadata: (asked: string[], topics: Set<string>) => unknown) {
  return () => ({
    connect: async () => undefined,
    disconnect: async () => undefined,
    listTopics: async () => [...topics],
    createTopics: async ({ topics: list }: { topics: { topic: string }[] }) => {
      for (const t of list) topics.add(t.topic);
      return true;
    },
    fetchTopicMetadata: async ({ topics: asked }: { topics: string[] }) => fetchTopicMetadata(asked, topics),
  });
}
