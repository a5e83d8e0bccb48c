// A wrapped server left running by a relay that was killed: stopped when the next run starts on the same state.
import fs from 'node:fs';
import type { ChildRecord } from './journal.js';

/**
 * Stops the previous run's wrapped server if it still runs the same command line (read from `/proc`, so only
 * where there is one: elsewhere nothing is stopped). A server whose relay was killed keeps its open asks alive
 * (server-everything waits ten minutes for an answer), holding the client's pipes.
 */
export function stopStaleChild(child: ChildRecord | undefined, log: (line: string) => void): boolean {
  if (!child) return false;
  let cmdline: string;
  try {
    cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
  } catch {
    return false; // gone already (or no /proc here)
  }
  const args = cmdline.split('\0').filter((a) => a !== '');
  // A pid can be reused: only a process with exactly the recorded command line is ours.
  if (args.length !== child.command.length || args.some((a, i) => a !== child.command[i])) return false;
  try {
    process.kill(child.pid, 'SIGTERM');
    log(`stopped the wrapped server the previous run left behind (pid ${child.pid})`);
    return true;
  } catch {
    return false;
  }
}
