// A service instance as its own process (tests fork it with tsx and kill it): reads the environment like
// `npm start`, starts, and tells the parent its port.
import pino from 'pino';
import { loadConfig, startServer } from '../src/index.js';

const running = await startServer(loadConfig(process.env, process.cwd()), pino({ level: 'silent' }));
process.send?.({ port: running.port });
