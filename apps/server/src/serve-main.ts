// The server process after the Node check (main.ts): read config once, serve until a signal, exit.
import { ConfigError, loadConfig } from './config.js';
import { serveUntilStopped } from './run-server.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Invalid configuration: ${err.message}`);
  process.exit(2);
}
const code = await serveUntilStopped(config, { stderr: (s) => process.stderr.write(s) });
// Exit explicitly: a client holding a long-poll open must not keep a stopped service alive.
process.exit(code);
