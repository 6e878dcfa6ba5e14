import { loadConfig } from '@gridrocket/shared/runtime';
import { startApp } from './bootstrap';

// Issue 38: no request may end the process; its causes are fixed where they were (docs/resilience.md,
// "A request cannot end the process"). Should anything still escape, the process is NOT kept running
// (Node: after 'uncaughtException' it is not safe to resume, state may be half-changed): the monitor only
// writes one fatal line that says so, then Node ends the process with its stack and code 1, and the
// supervisor (compose `restart: unless-stopped`, systemd `Restart=on-failure`) starts it again.
process.on('uncaughtExceptionMonitor', (err, origin) => {
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(JSON.stringify({ level: 'fatal', time: new Date().toISOString(), service: 'gridrocket', pid: process.pid, origin, msg: 'uncaught error: the process ends and its supervisor restarts it', err: stack }));
});

async function main() {
  const config = loadConfig();
  const { url } = await startApp(config);
  // The e2e and durability tests read this line to find the port.
  console.log(`GridRocket listening on ${url} (data in ${config.dataDir}, event store ${config.eventStore.kind}, read store ${config.readStore.kind})`);
}

main().catch((err) => {
  // a refusal that says what to do (the paper exchange run by another process, paper-lock.ts): its words alone
  console.error(err instanceof Error && err.name === 'PaperExchangeInUseError' ? `GridRocket not started: ${err.message}` : err);
  process.exit(1);
});
