// `svc relay`: the relay package's command (any MCP server's elicitations on the person's phone), run in svc.
import { runRelayCli } from '@screen-service/relay';

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

/**
 * Runs `svc relay ...` until the client or the wrapped server closes. stdout is the client's JSON-RPC wire
 * (on stdio), so everything this command says goes to stderr, except `--help`.
 */
export async function relayCommand(
  argv: string[],
  io: Out,
  env: Record<string, string | undefined>,
): Promise<number> {
  const stop = new AbortController();
  // `on`, kept until exit: under npx one Ctrl-C arrives twice (terminal and npm); closing twice is harmless.
  const abort = () => stop.abort();
  process.on('SIGINT', abort);
  process.on('SIGTERM', abort);
  try {
    return await runRelayCli(argv, {
      env,
      stdout: io.stdout,
      stderr: io.stderr,
      signal: stop.signal,
      stdin: process.stdin,
    });
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
}
