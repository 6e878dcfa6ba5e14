// @ts-check
/** jest globalTeardown: stops the broker that kafka-global-setup.js started (if it did). */
module.exports = async function kafkaGlobalTeardown() {
  const broker = /** @type {any} */ (globalThis).__GRIDROCKET_KAFKA__;
  if (broker) await broker.destroy();
};
