// `svc share ...`: the owner's offline tool for shared agents (doc2 "Other"), over the service's store and
// the owner's account. A refusal (an agent that is not client-safe) exits 3 and names the failed rule.
import fs from 'node:fs';
import type { Shares } from '@screen-service/core/sharing';
import { normalizeEmail } from '@screen-service/registry/accounts';
import { isServiceError } from '@screen-service/registry/kernel';
import type { ServerConfig } from '@screen-service/server';
import { CliError, EXIT } from './commands.js';
import { openServices } from './open-services.js';
import { parseOptions } from './options.js';

export const SHARE_HELP = `svc share: share your client-safe agents with other people (an offline tool over the service's store)

Usage: svc share <command> --email OWNER [options]

Commands:
  safe <agent>                                  is the agent client-safe? (exit 3 naming the failed rule if not)
  template save --json JSON | --file FILE       save a template {name, title, shared_by?, items:[{agent, first_message, theme?}]}
  template list | show <name> | delete <name>
  grant <agent> <user> [--look] [--hello] [--by NAME]
                                                share one agent with one person (email or user id)
  revoke <agent> <user>                         take it back: gone from their list at once, thread closed
  list                                          the grants you gave
  plan                                          an invite plan for your client-safe agents (JSON)
  send --answers ANSWERS                        ANSWERS = the plan JSON (edited) or a tap line; re-checks safety,
                                                saves the template, creates and approves the invite, prints the link

<agent> is a handle or id of your agent. Output is JSON. Exit codes: 0 done, 2 usage, 3 refused.`;

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

/** Runs one `svc share` command against the store of `config` (the data folder's file, or SVC_DATABASE_URL). */
export async function shareCommand(argv: string[], config: () => ServerConfig, io: Out): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      email: { type: 'string' },
      json: { type: 'string' },
      file: { type: 'string' },
      look: { type: 'boolean' },
      hello: { type: 'boolean' },
      by: { type: 'string' },
      answers: { type: 'string' },
    },
    'svc share',
  );
  const [sub, ...args] = positionals;
  if (values.help || sub === undefined || sub === 'help') {
    io.stdout(`${SHARE_HELP}\n`);
    return sub === undefined && !values.help ? EXIT.USAGE : EXIT.OK;
  }
  const arg = (i: number, name: string) => {
    const v = args[i];
    if (v === undefined || v === '') throw new CliError(`${name} is required.\n\n${SHARE_HELP}`, EXIT.USAGE);
    return v;
  };
  if (typeof values.email !== 'string' || values.email.trim() === '')
    throw new CliError(`--email (the owner's account) is required.\n\n${SHARE_HELP}`, EXIT.USAGE);
  const c = config();
  const opened = await openServices(c);
  try {
    const core = opened.services;
    const owner = await core.store.users.findByEmail(normalizeEmail(values.email));
    if (!owner) throw new CliError(`No account for ${values.email} (${opened.where}).`, EXIT.REFUSED);
    const run = async (fn: (s: Shares, ownerId: string) => Promise<unknown>) => {
      try {
        io.stdout(`${JSON.stringify(await fn(core.shares, owner.id), null, 2)}\n`);
        return EXIT.OK;
      } catch (err) {
        if (!isServiceError(err)) throw err;
        const usage = err.code === 'INVALID_INPUT';
        throw new CliError(`${err.message} (${err.code.toLowerCase()})`, usage ? EXIT.USAGE : EXIT.REFUSED);
      }
    };
    switch (sub) {
      case 'safe': {
        const agent = arg(0, '<agent>');
        const v = await core.shares.safe(owner.id, agent).catch((err: unknown) => {
          if (isServiceError(err)) throw new CliError(err.message, EXIT.REFUSED);
          throw err;
        });
        io.stdout(`${JSON.stringify(v, null, 2)}\n`);
        if (v.client_safe) return EXIT.OK;
        const { notClientSafe } = await import('@screen-service/registry/hosts');
        const agentRow = await core.store.agents.get(v.agent.id);
        io.stderr(`svc: ${notClientSafe(agentRow!, v.share_why).message}\n`);
        return EXIT.REFUSED;
      }
      case 'template': {
        const [verb, name] = args;
        if (verb === 'save') {
          const text =
            typeof values.json === 'string'
              ? values.json
              : typeof values.file === 'string'
                ? fs.readFileSync(values.file, 'utf8')
                : undefined;
          if (text === undefined)
            throw new CliError('template save needs --json JSON or --file FILE.', EXIT.USAGE);
          let input: unknown;
          try {
            input = JSON.parse(text);
          } catch {
            throw new CliError('The template is not valid JSON.', EXIT.USAGE);
          }
          return await run((s, o) => s.saveTemplate(o, input as Parameters<Shares['saveTemplate']>[1]));
        }
        if (verb === 'list') return await run((s, o) => s.listTemplates(o));
        if (verb === 'show') return await run((s, o) => s.showTemplate(o, name));
        if (verb === 'delete') return await run((s, o) => s.deleteTemplate(o, name));
        throw new CliError('Use template save|list|show|delete.', EXIT.USAGE);
      }
      case 'grant': {
        const agent = arg(0, '<agent>');
        const user = arg(1, '<user>');
        return await run((s, o) =>
          s.grant(o, {
            agent,
            user,
            look: values.look === true,
            hello: values.hello === true,
            ...(values.by !== undefined ? { by: values.by } : {}),
          }),
        );
      }
      case 'revoke': {
        const agent = arg(0, '<agent>');
        const user = arg(1, '<user>');
        return await run((s, o) => s.revoke(o, { agent, user }));
      }
      case 'list':
        return await run((s, o) => s.given(o));
      case 'plan':
        return await run((s, o) => s.plan(o));
      case 'send': {
        if (typeof values.answers !== 'string')
          throw new CliError('send needs --answers (the plan JSON or a tap line).', EXIT.USAGE);
        const answers = values.answers;
        return await run(async (s, o) => {
          const sent = await s.send(o, answers);
          return { link: sent.link, invite_id: sent.invite_id, template: sent.template };
        });
      }
      default:
        throw new CliError(`Unknown command "share ${sub}". Run \`svc share --help\`.`, EXIT.USAGE);
    }
  } finally {
    await opened.close();
  }
}
