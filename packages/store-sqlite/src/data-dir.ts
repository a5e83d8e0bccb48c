// Where the database lives when SVC_DATA_DIR is not set: one answer wherever the CLI or server is started.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The nearest folder at or above `from` whose package.json declares `workspaces` (the repository
 * root), or undefined when there is none (the service installed outside its repository).
 */
export function findWorkspaceRoot(from: string): string | undefined {
  let dir = path.resolve(from);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { workspaces?: unknown };
        if (pkg.workspaces !== undefined) return dir;
      } catch {
        // An unreadable manifest is not a workspace root; keep walking up.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The per-user data folder: XDG_DATA_HOME (or ~/.local/share) on Linux, ~/Library/Application Support on macOS. */
export function userDataDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  home: string,
): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'screen-service');
  if (platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'screen-service');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'screen-service');
}

export interface DefaultDataDirOptions {
  /** Where the service's own code lives; the walk up to the repository root starts here (not at the cwd). */
  codeDir: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

/**
 * `<repository root>/data` when the code runs from inside its repository, else the per-user data
 * folder. Starting from the code's location (not the working directory) means `npm start`, `npx svc`
 * from any subfolder and `node apps/server/dist/main.js` all open the same database.
 */
export function defaultDataDir(options: DefaultDataDirOptions): string {
  const root = findWorkspaceRoot(options.codeDir);
  return root ? path.join(root, 'data') : userDataDir(options.env, options.platform, options.home);
}
