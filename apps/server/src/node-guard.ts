// The Node-version check of the process entries. Imports nothing, so it runs on any Node before the rest loads.

/** The Node major the service runs on (pinned through npm, ADR 0001). */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * The refusal for another Node, or undefined on Node 24. `program` names what was started
 * (`Screen Service`, `svc`) so the next step fits: `npm start` or `npx svc`.
 */
export function nodeVersionRefusal(version: string, program: 'server' | 'svc'): string | undefined {
  if (Number(version.split('.')[0]) === REQUIRED_NODE_MAJOR) return undefined;
  const next =
    program === 'svc'
      ? 'Run it as `npx svc` from the repository (npm puts the pinned Node 24 first on PATH)'
      : 'Start it with `npm start` (which uses the pinned Node 24)';
  const who = program === 'svc' ? 'svc' : 'Screen Service';
  return `${who} needs Node ${REQUIRED_NODE_MAJOR} but this is Node ${version}. ${next}, or install Node ${REQUIRED_NODE_MAJOR}.`;
}
