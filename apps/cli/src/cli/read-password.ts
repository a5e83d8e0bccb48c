// Reads a password from stdin: one line from a pipe, or typed at a terminal without echo.
import readline from 'node:readline';

export async function readPassword(
  stdin: NodeJS.ReadableStream,
  prompt: (s: string) => void,
): Promise<string> {
  const tty = (stdin as NodeJS.ReadStream).isTTY === true;
  if (tty) prompt('Password (not shown): ');
  const rl = readline.createInterface({ input: stdin, terminal: false });
  try {
    for await (const line of rl) {
      if (tty) prompt('\n');
      return line.replace(/\r$/, '');
    }
    return '';
  } finally {
    rl.close();
  }
}
