// CPU spent per operation in a bench window (issue 42): this process (the instances, node-postgres), the
// PostgreSQL cluster (the postmaster and every backend, those that exited included) and the child processes
// this process waited for (pgbench). On a machine shared with other work, calls per second move with the
// load; CPU per call moves far less, so the bench prints both. Linux only (/proc); elsewhere it reads null.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** CPU microseconds so far: this process, its waited-for children, and the cluster (null off Linux). */
export interface CpuSample {
  node: number;
  children: number | null;
  cluster: number | null;
}

/** The fields after the command name of /proc/<pid>/stat (state is [0], utime [11], cstime [14]). */
function statFields(pid: string | number): string[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * A meter on the cluster that serves `url` (its postmaster's pid read from the data directory, which needs a
 * superuser connection and a readable postmaster.pid; without them the cluster column is null).
 */
export async function cpuMeter(url: string): Promise<{ sample(): CpuSample }> {
  let postmaster: number | null = null;
  let tickUs = 10_000;
  try {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const dir = (await client.query<{ d: string }>("SELECT current_setting('data_directory') AS d"))
        .rows[0]!.d;
      postmaster = Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    } finally {
      await client.end();
    }
    tickUs = 1_000_000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    postmaster = null;
  }
  const ticks = (f: string[], from: number) => Number(f[from]) + Number(f[from + 1]);
  return {
    sample() {
      const own = process.cpuUsage();
      const self = statFields('self');
      let cluster: number | null = null;
      if (postmaster !== null) {
        const pm = statFields(postmaster);
        // The postmaster's own time and its reaped children's (backends that ended), then the live backends.
        cluster = pm ? ticks(pm, 11) + ticks(pm, 13) : 0;
        for (const pid of readdirSync('/proc')) {
          if (!/^\d+$/.test(pid) || Number(pid) === postmaster) continue;
          const f = statFields(pid);
          if (f && Number(f[1]) === postmaster) cluster += ticks(f, 11);
        }
        cluster *= tickUs;
      }
      return {
        node: own.user + own.system,
        children: self ? ticks(self, 13) * tickUs : null,
        cluster,
      };
    },
  };
}

/** CPU microseconds per operation between two samples, `n` operations. */
export function perOp(a: CpuSample, b: CpuSample, n: number) {
  const per = (x: number | null, y: number | null) => (x === null || y === null ? null : (y - x) / n);
  return {
    node: per(a.node, b.node)!,
    children: per(a.children, b.children),
    cluster: per(a.cluster, b.cluster),
  };
}
