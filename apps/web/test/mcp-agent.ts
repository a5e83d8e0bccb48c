// The AI app's side in the browser tests: a real MCP SDK client on the service's tool server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface Answer {
  kind: 'tap' | 'text';
  text: string;
  screen_id: string | null;
  event: Record<string, unknown> | null;
  photos?: string[];
}

export interface ShowAnswer {
  screen_id: string;
  tap_ids: string[];
  tables?: { wrote: number; failed: { line: string; error: string }[]; pending: { prompt: string }[] };
  text: string;
}

export interface TablesAnswer {
  ok: unknown[];
  failed: { line: string; error: string; code: string }[];
  results: { table: string; cols: string[]; rows: unknown[][]; count: number; error?: string }[];
  pending: { id: string; prompt: string }[];
}

export interface McpAgent {
  /** The SDK client itself, for raw calls (resources, svc_tap from a test host). */
  client: Client;
  /** svc_show: its structured answer, and `text`, what the model reads. */
  show(lines: string, text?: string): Promise<ShowAnswer>;
  /** svc_tables with `lines`: `{ok, failed, results, pending}`. */
  tables(lines: string): Promise<TablesAnswer>;
  say(text: string): Promise<void>;
  answers(screen_id?: string, wait?: number): Promise<Answer[]>;
  close(): Promise<void>;
}

/** Connects with `Authorization: Bearer svc_ct_...` (doc1 pairing step 3) and calls the thread tools. */
export async function connectMcpAgent(baseUrl: string, token: string): Promise<McpAgent> {
  const client = new Client({ name: 'browser-test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/functions/v1/svc-mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const raw = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    return r;
  };
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> =>
    (await raw(name, args)).structuredContent as T;
  return {
    client,
    show: async (lines, text) => {
      const r = await raw('svc_show', { lines, ...(text ? { text } : {}) });
      const said = (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
      return { ...(r.structuredContent as Omit<ShowAnswer, 'text'>), text: said };
    },
    tables: (lines) => call('svc_tables', { lines }),
    say: async (text) => {
      await call('svc_say', { text });
    },
    // A long default wait: it returns as soon as an answer arrives, and a photo upload under CI's load
    // took more than 5 s once (the answer came after the call had returned []). Tests that expect
    // nothing pass their own short wait.
    answers: async (screen_id, wait = 20) =>
      (await call<{ answers: Answer[] }>('svc_answers', { ...(screen_id ? { screen_id } : {}), wait }))
        .answers,
    close: () => client.close(),
  };
}
