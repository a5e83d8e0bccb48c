// A Vercel AI SDK tool that needs approval (`needsApproval`), approved or denied by the person on their phone.
// Run: SVC_URL=https://svc.example/functions/v1/svc-mcp SVC_TOKEN=svc_ct_... npm start
// The model here is the AI SDK's own scripted model (this example runs offline); pass any provider's model.
import { connect } from '@screen-service/agent';
import { generateText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

/** The tool the model may call; it runs only after the person approves it on their phone. */
export function deployTool(deployed) {
  return tool({
    description: 'Deploy a version of the app to an environment.',
    inputSchema: z.object({ version: z.string(), environment: z.enum(['staging', 'production']) }),
    needsApproval: true,
    execute: async ({ version, environment }) => {
      deployed.push(`${version}@${environment}`);
      return { ok: true, url: `https://${environment}.example/${version}` };
    },
  });
}

/**
 * Runs the model; every tool call that needs approval becomes a confirm on the person's phone, and its answer
 * goes back to the model as the SDK's `tool-approval-response`. Returns the model's last text.
 */
export async function runWithPhoneApproval({ svc, model, tools, prompt }) {
  const messages = [{ role: 'user', content: prompt }];
  for (;;) {
    const result = await generateText({ model, tools, messages });
    messages.push(...result.response.messages);
    const requests = result.content.filter((part) => part.type === 'tool-approval-request');
    if (requests.length === 0) return result.text;
    const answers = [];
    for (const request of requests) {
      const { toolName, input } = request.toolCall;
      const approved = await svc.confirm(`Allow ${toolName}: ${JSON.stringify(input)}?`, {
        yes: 'Approve',
        no: 'Deny',
        text: 'The assistant wants to run a tool.',
      });
      answers.push({ type: 'tool-approval-response', approvalId: request.approvalId, approved });
    }
    messages.push({ role: 'tool', content: answers });
  }
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

/** A scripted model: first it calls deploy, then it reports what the tool answered (or that it was denied). */
export function scriptedModel() {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const toolMessage = prompt.findLast((m) => m.role === 'tool');
      const outcome = toolMessage?.content.find((p) => p.type === 'tool-result');
      if (!outcome) {
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call-1',
              toolName: 'deploy',
              input: JSON.stringify({ version: 'v2.4.0', environment: 'production' }),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      const denied = outcome.output.type === 'execution-denied';
      const text = denied ? 'You denied the deploy, so nothing changed.' : 'Deployed v2.4.0 to production.';
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { SVC_URL, SVC_TOKEN } = process.env;
  if (!SVC_URL || !SVC_TOKEN) {
    console.error(
      'Set SVC_URL (the tool server, .../functions/v1/svc-mcp) and SVC_TOKEN (svc_ct_... or svc_at_...).',
    );
    process.exit(2);
  }
  const svc = connect({ url: SVC_URL, token: SVC_TOKEN });
  const deployed = [];
  try {
    const text = await runWithPhoneApproval({
      svc,
      model: scriptedModel(),
      tools: { deploy: deployTool(deployed) },
      prompt: 'Ship v2.4.0 to production.',
    });
    console.log(text);
  } finally {
    await svc.close();
  }
}
