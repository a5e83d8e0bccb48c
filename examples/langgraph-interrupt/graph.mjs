// A LangGraph graph that stops at `interrupt` for a person's decision; the runner asks on the phone with
// @screen-service/agent and resumes the graph with the answer (`Command({ resume })`).
// Run: SVC_URL=https://svc.example/functions/v1/svc-mcp SVC_TOKEN=svc_ct_... npm start

import { Annotation, Command, END, interrupt, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { connect } from '@screen-service/agent';

const Order = Annotation.Root({
  dish: Annotation(),
  servings: Annotation(),
  receipt: Annotation(),
});

/** Two human steps (a choice, then a number) and a step that uses both. */
export function lunchGraph() {
  return new StateGraph(Order)
    .addNode('pickDish', () => ({
      dish: interrupt({ kind: 'choose', question: 'Lunch?', options: ['Soup', 'Salad'] }),
    }))
    .addNode('pickServings', (s) => ({
      servings: interrupt({ kind: 'ask', question: `How many ${s.dish}?`, type: 'number' }),
    }))
    .addNode('order', (s) => ({ receipt: `${s.servings} x ${s.dish}` }))
    .addEdge(START, 'pickDish')
    .addEdge('pickDish', 'pickServings')
    .addEdge('pickServings', 'order')
    .addEdge('order', END)
    .compile({ checkpointer: new MemorySaver() });
}

/** Asks the person what an interrupt asks for. */
function askFor(svc, value) {
  if (value.kind === 'choose') return svc.choose(value.question, value.options);
  return svc.ask(value.question, { type: value.type });
}

/** Runs the graph to its end, answering each interrupt with the person's answer from the phone. */
export async function runWithPerson(svc, graph, threadId) {
  const config = { configurable: { thread_id: threadId } };
  let state = await graph.invoke({}, config);
  while (state.__interrupt__?.length) {
    const answer = await askFor(svc, state.__interrupt__[0].value);
    state = await graph.invoke(new Command({ resume: answer }), config);
  }
  return state;
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
  try {
    const state = await runWithPerson(svc, lunchGraph(), `lunch-${Date.now()}`);
    console.log(`Ordered: ${state.receipt}`);
  } finally {
    await svc.close();
  }
}
