// scratch (not committed): start the stack + auth proxy and keep running
import { startAuthProxy } from '../test/auth-proxy.js';
import { startStack } from '../test/harness.js';
const stack = await startStack({ rateLimit: { burst: 10_000, perMinute: 10_000 } });
const { token } = await stack.newConnection('Conformance');
const proxy = await startAuthProxy(stack.mcpUrl, `Bearer ${token}`);
console.log(`PROXY ${proxy.url}`);
console.log(`DIRECT ${stack.mcpUrl} TOKEN ${token}`);
setInterval(() => { if (stack.errors.length) console.log('ERR', stack.errors.splice(0)); }, 1000);
