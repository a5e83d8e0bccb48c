// The on-disk outbox: every row for the service waits here (one owner-only file each) until posted.
import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BridgeError } from './errors.js';
import { ensurePrivateDir, readJsonFile, writePrivateJson } from './private-files.js';
import type { OutboundPost, ServiceLink } from './service-link.js';

interface Entry {
  queuedAt: number;
  post: OutboundPost;
}

function fileName(id: string): string {
  return `${createHash('sha256').update(id).digest('hex').slice(0, 40)}.json`;
}

/**
 * A directory of posts waiting for the service. `put` is atomic and keyed by the post's id, so writing
 * the same answer twice (after a crash) leaves one entry.
 *
 * @example
 * ```ts
 * const outbox = new Outbox('/home/me/.svc-a2a/outbox');
 * await outbox.put(post);
 * await outbox.flush(link);
 * ```
 */
export class Outbox {
  constructor(readonly dir: string) {}

  /** Queues a post (replacing a queued post with the same id). */
  async put(post: OutboundPost): Promise<void> {
    await writePrivateJson(join(this.dir, fileName(post.id)), { queuedAt: Date.now(), post } satisfies Entry);
  }

  /** The queued posts, oldest first. */
  async list(): Promise<OutboundPost[]> {
    await ensurePrivateDir(this.dir);
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.json'));
    const entries: Entry[] = [];
    for (const name of names) {
      const path = join(this.dir, name);
      let entry: unknown;
      try {
        entry = await readJsonFile(path);
      } catch (cause) {
        throw new BridgeError(
          'INVALID_OUTBOX_ENTRY',
          `the outbox file ${path} is not valid JSON; move it away`,
          {
            cause,
          },
        );
      }
      if (entry === undefined) continue;
      const e = entry as Partial<Entry>;
      if (typeof e.queuedAt !== 'number' || typeof e.post?.id !== 'string') {
        throw new BridgeError(
          'INVALID_OUTBOX_ENTRY',
          `the outbox file ${path} is not an outbox entry; move it away`,
        );
      }
      entries.push(e as Entry);
    }
    entries.sort((a, b) => a.queuedAt - b.queuedAt || a.post.id.localeCompare(b.post.id));
    return entries.map((e) => e.post);
  }

  /** Removes a post once the service has it. */
  async remove(id: string): Promise<void> {
    await rm(join(this.dir, fileName(id)), { force: true });
  }

  /**
   * Posts everything queued, oldest first, removing each once the service has it. Stops at the first
   * failure (the rest stay queued) and rethrows it. Returns how many were posted.
   */
  flush(link: ServiceLink): Promise<number> {
    // One flush at a time: agents served side by side must not post the same entry twice at once.
    const run = this.flushing.then(() => this.flushNow(link));
    this.flushing = run.catch(() => 0);
    return run;
  }

  private flushing: Promise<number> = Promise.resolve(0);

  private async flushNow(link: ServiceLink): Promise<number> {
    let posted = 0;
    for (const post of await this.list()) {
      await link.post(post);
      await this.remove(post.id);
      posted++;
    }
    return posted;
  }
}
