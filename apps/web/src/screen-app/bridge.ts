// Talks to the chat host: the MCP Apps bridge (ext-apps), or the older `window.openai` global when the bridge never answers.
import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';
import type { Op } from '@screen-service/screen-lines';

/** What svc_show's structuredContent carries (doc1 "In-chat view"). */
export interface ShowOutput {
  screen_id: string;
  lines: string;
  /** The parsed ops the core stored; results from before they were sent lack them (ADR 0074). */
  ops?: Op[];
  tap_ids?: string[];
  /** svc_show's optional chat line, drawn above the screen. */
  text?: string;
  agent?: { id?: string; handle?: string; name?: string };
}

/** The host as the view uses it, whichever family it is. */
export interface Host {
  kind: 'mcp-apps' | 'openai';
  /** Gives the host the tap line as the person's next message; true when the host took it. */
  sendMessage(text: string): Promise<boolean>;
  callTool(name: string, args: Record<string, unknown>): Promise<void>;
}

export interface BridgeHandlers {
  onOutput(output: ShowOutput): void;
  onTheme(theme: 'light' | 'dark' | undefined): void;
}

interface OpenAiGlobal {
  toolOutput?: unknown;
  theme?: 'light' | 'dark';
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  sendFollowUpMessage(args: { prompt: string }): Promise<void>;
}

const isOutput = (v: unknown): v is ShowOutput =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as ShowOutput).screen_id === 'string' &&
  typeof (v as ShowOutput).lines === 'string';

function openAiHost(openai: OpenAiGlobal, handlers: BridgeHandlers): Host {
  const read = () => {
    const out = openai.toolOutput as { structuredContent?: unknown } | undefined;
    const value = isOutput(out) ? out : out?.structuredContent;
    if (isOutput(value)) handlers.onOutput(value);
    handlers.onTheme(openai.theme);
  };
  read();
  window.addEventListener('openai:set_globals', read);
  return {
    kind: 'openai',
    async sendMessage(text) {
      try {
        await openai.sendFollowUpMessage({ prompt: text });
        return true;
      } catch {
        return false;
      }
    },
    async callTool(name, args) {
      await openai.callTool(name, args);
    },
  };
}

/**
 * Connects to the host. The MCP Apps bridge is tried first; when it has not answered within `waitMs` and
 * the host has the older `window.openai` global, that is used instead.
 */
export async function connectHost(handlers: BridgeHandlers, waitMs = 1500): Promise<Host> {
  const app = new App({ name: 'Screen Service screen', version: '1.0.0' });
  app.ontoolresult = (result) => {
    if (isOutput(result.structuredContent)) handlers.onOutput(result.structuredContent);
  };
  app.onhostcontextchanged = (context) => handlers.onTheme(context.theme);
  const connected = app
    .connect(new PostMessageTransport(window.parent, window.parent))
    .then(() => true)
    .catch(() => false);
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), waitMs));
  if (await Promise.race([connected, timeout])) {
    handlers.onTheme(app.getHostContext()?.theme);
    return {
      kind: 'mcp-apps',
      async sendMessage(text) {
        try {
          const r = await app.sendMessage({ role: 'user', content: [{ type: 'text', text }] });
          return !r.isError;
        } catch {
          return false;
        }
      },
      async callTool(name, args) {
        await app.callServerTool({ name, arguments: args });
      },
    };
  }
  const openai = (window as unknown as { openai?: OpenAiGlobal }).openai;
  if (openai) return openAiHost(openai, handlers);
  throw new Error('No host answered: open this view inside a chat app that shows MCP Apps.');
}
