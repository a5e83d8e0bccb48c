// Process entry: check Node, read config once, start, and shut down cleanly on SIGINT/SIGTERM.
import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `Screen Service needs Node 24 but this is Node ${process.versions.node}. Start it with \`npm start\` (which uses the pinned Node 24), or install Node 24.`,
  );
  process.exit(1);
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Invalid configuration: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const running = await startServer(config);
  const stop = (signal: string) => {
    running.logger.info({ signal }, 'shutting down');
    running.close().then(
      () => {
        running.logger.info('stopped');
        process.exit(0);
      },
      (err) => {
        running.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') {
    console.error(`Port already in use (${e.message}). Stop the other process or set PORT to a free port.`);
  } else {
    console.error('Screen Service failed to start:', err);
  }
  process.exit(1);
});
