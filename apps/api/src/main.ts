import { loadConfig } from '@gridrocket/shared/runtime';
import { startApp } from './bootstrap';

async function main() {
  const config = loadConfig();
  const { url } = await startApp(config);
  // The e2e and durability tests read this line to find the port.
  console.log(`GridRocket listening on ${url} (data in ${config.dataDir}, event store ${config.eventStore.kind}, read store ${config.readStore.kind})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
