// @ts-check
/** jest globalTeardown: stops the broker that kafka-global-setup.js started (if it did). */
module.exports = async function kafkaGlobalTeardown() {
  const broker = /** @type {any} */ (globalThis).__GRIDROCKET_KAFKA__;
  if (broker) await broker.destroy();
  // what the suites left open (jest.config.js forceExit): named, so that a leak is seen and mended, not hidden
  const open = /** @type {any} */ (process)._getActiveHandles?.() ?? [];
  const kinds = new Map();
  for (const h of open) {
    const kind = h?.constructor?.name ?? typeof h;
    if ([0, 1, 2].includes(h?.fd ?? h?._handle?.fd)) continue; // stdio
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  if (kinds.size) console.warn(`jest: handles left open by the suites (closed by forceExit): ${[...kinds].map(([k, n]) => `${k} × ${n}`).join(', ')}`);
};
